// The warehouse bench's baseline (see warehouse.mjs), in its own process like every run: the same pages of the same
// feed fetched with plain `fetch` (the same token endpoint, page size and next links), each page read as text and
// parsed with JSON.parse, then dropped. No SDK, no encoding, no file: what reading the feed costs by itself, so the
// export runs' figures can be read as ratios against it.
// argv: <base url> <page size>
const [baseUrl, pageSize] = process.argv.slice(2) as [string, string];
const token = await fetch(`${baseUrl}/connect/token`, {
  method: "POST",
  headers: {
    authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
    "content-type": "application/x-www-form-urlencoded",
  },
  body: "grant_type=client_credentials&scope=Shop",
});
const { access_token } = (await token.json()) as { access_token: string };
const started = performance.now();
let rows = 0;
let url: string | undefined = `${baseUrl}/bi/v1/odata/Tickets?$count=true`;
while (url) {
  const response = await fetch(url, {
    headers: {
      authorization: `Bearer ${access_token}`,
      accept: "application/json;odata.metadata=minimal",
      prefer: `odata.maxpagesize=${pageSize}`,
    },
  });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const page = JSON.parse(await response.text()) as { value: unknown[]; "@odata.nextLink"?: string };
  rows += page.value.length;
  url = page["@odata.nextLink"];
}
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `${JSON.stringify({ rows, seconds, rowsPerSecond: Math.round(rows / seconds), peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`,
);
