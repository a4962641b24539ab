// Preloaded into each measured process of the warehouse bench (`node --import ./bench/peak-rss.mjs …`): at exit it
// writes the process's peak RSS as the operating system reports it (getrusage ru_maxrss) to $PEAK_RSS_FILE.
import { writeFileSync } from "node:fs";

process.on("exit", () => {
  writeFileSync(process.env.PEAK_RSS_FILE, String(process.resourceUsage().maxRSS * 1024));
});
