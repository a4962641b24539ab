import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { connect, createServer } from "node:net";
import puppeteer, { type Browser, type KeyInput, type Page } from "puppeteer-core";
import { chromiumPath, DEBIAN_CHROMIUM } from "../../scripts/chromium-path.mjs";

/**
 * The one thing the cross-engine journey needs from a browser: open a page, run a function in it, press keys.
 * Two implementations cover the three engines as Debian ships them (Playwright's own Firefox and WebKit builds
 * are downloads, and geckodriver is neither on npm nor in Debian):
 * - Chromium and Firefox ESR through puppeteer-core, which launches them itself and speaks CDP to Chromium and
 *   WebDriver BiDi to Firefox (no driver binary in between);
 * - WebKitGTK through its `WebKitWebDriver` (classic W3C WebDriver over HTTP; it offers no BiDi socket), started
 *   on a free port under `xvfb-run`, spoken to with `fetch` (a dozen endpoints; no client library needed).
 */
export type Engine = "chromium" | "firefox" | "webkit";
export const ENGINES: readonly Engine[] = ["chromium", "firefox", "webkit"];

/** A key the journey presses (`ShiftTab`: Tab with Shift held), or text typed character by character. */
export type Key = "Tab" | "ShiftTab" | "Enter" | "Space" | "Backspace" | { text: string };

export interface Driver {
  readonly engine: Engine;
  goto(url: string): Promise<void>;
  /** Runs `fn` in the page (it must be self-contained: it is sent as source) and returns its JSON result. */
  run<A extends unknown[], T>(fn: (...args: A) => T | Promise<T>, ...args: A): Promise<Awaited<T>>;
  press(...keys: Key[]): Promise<void>;
  close(): Promise<void>;
}

const PUPPETEER_KEYS: Record<Exclude<Key, { text: string } | "ShiftTab">, KeyInput> = {
  Tab: "Tab",
  Enter: "Enter",
  Space: " " as KeyInput,
  Backspace: "Backspace",
};

class PuppeteerDriver implements Driver {
  readonly engine: Engine;
  readonly #browser: Browser;
  readonly #page: Page;

  constructor(engine: Engine, browser: Browser, page: Page) {
    this.engine = engine;
    this.#browser = browser;
    this.#page = page;
  }

  async goto(url: string) {
    await this.#page.goto(url);
  }

  run<A extends unknown[], T>(fn: (...args: A) => T | Promise<T>, ...args: A): Promise<Awaited<T>> {
    return this.#page.evaluate(fn as never, ...(args as unknown as never[])) as Promise<Awaited<T>>;
  }

  async press(...keys: Key[]) {
    for (const key of keys) {
      if (typeof key === "object") await this.#page.keyboard.type(key.text);
      else if (key === "ShiftTab") {
        await this.#page.keyboard.down("Shift");
        await this.#page.keyboard.press("Tab");
        await this.#page.keyboard.up("Shift");
      } else await this.#page.keyboard.press(PUPPETEER_KEYS[key]);
    }
  }

  async close() {
    await this.#browser.close();
  }
}

/** The Chromium of every browser test (`scripts/chromium-path.mjs`: `CHROMIUM_PATH` when it exists, else Debian's). */
export const CHROMIUM = chromiumPath() ?? DEBIAN_CHROMIUM;
export const FIREFOX = process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr";
export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? "/usr/bin/WebKitWebDriver";
/** WebKitGTK's MiniBrowser (WebKitWebDriver's default browser is Epiphany, which Debian's driver does not pull in). */
export const MINIBROWSER =
  process.env.WEBKIT_BROWSER_PATH ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";

async function puppeteerDriver(engine: "chromium" | "firefox", viewport: Viewport): Promise<Driver> {
  const browser = await puppeteer.launch(
    engine === "firefox"
      ? {
          browser: "firefox",
          executablePath: FIREFOX,
          headless: true,
          protocol: "webDriverBiDi",
        }
      : {
          browser: "chrome",
          executablePath: CHROMIUM,
          headless: true,
          args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-sync"],
        },
  );
  const page = await browser.newPage();
  await page.setViewport(viewport);
  return new PuppeteerDriver(engine, browser, page);
}

/** WebDriver's key codes (the W3C spec's table) for the keys the journey presses. */
const WEBDRIVER_KEYS: Record<Exclude<Key, { text: string } | "ShiftTab">, string> = {
  Tab: "\uE004",
  Enter: "\uE007",
  Space: " ",
  Backspace: "\uE003",
};

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/**
 * Resolves once something accepts connections on `port`. WebKitWebDriver prints nothing when it is ready, so each
 * connection attempt is made when the previous one has closed (refused: not listening yet): no timer between
 * attempts. Rejects when `child` exits first or after 30 s.
 */
function listening(port: number, child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(giveUp);
      child.off("exit", exited);
      if (error === undefined) resolve();
      else reject(error);
    };
    const exited = (code: number | null) =>
      finish(new Error(`WebKitWebDriver exited (${code}) before listening`));
    const giveUp = setTimeout(
      () => finish(new Error(`WebKitWebDriver did not listen on ${port} within 30 s`)),
      30_000,
    );
    child.once("exit", exited);
    const attempt = () => {
      if (settled) return;
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        finish();
      });
      socket.once("error", () => {});
      socket.once("close", (failed) => {
        if (failed) attempt();
      });
    };
    attempt();
  });
}

class WebDriverClassic implements Driver {
  readonly engine = "webkit" as const;

  readonly base: string;
  readonly session: string;
  readonly #process: ChildProcess;

  constructor(base: string, session: string, child: ChildProcess) {
    this.base = base;
    this.session = session;
    this.#process = child;
  }

  static async start(viewport: Viewport): Promise<WebDriverClassic> {
    const port = await freePort();
    // Its own process group, so closing ends xvfb-run, the X server, the driver and the browser together.
    const child = spawn("xvfb-run", ["-a", WEBKIT_DRIVER, `--port=${port}`], {
      stdio: "ignore",
      detached: true,
    });
    const base = `http://127.0.0.1:${port}`;
    await listening(port, child);
    const { sessionId } = await request<{ sessionId: string }>(base, "POST", "/session", {
      capabilities: {
        alwaysMatch: { "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] } },
      },
    });
    const driver = new WebDriverClassic(base, `/session/${sessionId}`, child);
    await request(base, "POST", `${driver.session}/window/rect`, { ...viewport, x: 0, y: 0 });
    return driver;
  }

  async goto(url: string) {
    await request(this.base, "POST", `${this.session}/url`, { url });
  }

  async run<A extends unknown[], T>(fn: (...args: A) => T | Promise<T>, ...args: A): Promise<Awaited<T>> {
    // The automation's script runs outside the page's CSP; the result comes back through WebDriver's callback.
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fn.toString()})(...Array.prototype.slice.call(arguments, 0, -1)))
        .then((value) => done({ value }), (error) => done({ error: String(error && error.stack || error) }));`;
    const outcome = await request<{ value?: Awaited<T>; error?: string }>(
      this.base,
      "POST",
      `${this.session}/execute/async`,
      { script, args },
    );
    if (outcome.error !== undefined) throw new Error(`in the page: ${outcome.error}`);
    return outcome.value as Awaited<T>;
  }

  async press(...keys: Key[]) {
    const stroke = (value: string) => [
      { type: "keyDown", value },
      { type: "keyUp", value },
    ];
    const SHIFT = "\uE008";
    const actions = keys.flatMap((key) =>
      typeof key === "object"
        ? [...key.text].flatMap(stroke)
        : key === "ShiftTab"
          ? [
              { type: "keyDown", value: SHIFT },
              ...stroke(WEBDRIVER_KEYS.Tab),
              { type: "keyUp", value: SHIFT },
            ]
          : stroke(WEBDRIVER_KEYS[key]),
    );
    await request(this.base, "POST", `${this.session}/actions`, {
      actions: [{ type: "key", id: "keyboard", actions }],
    });
  }

  async close() {
    await request(this.base, "DELETE", this.session).catch(() => {});
    if (this.#process.pid !== undefined) {
      try {
        process.kill(-this.#process.pid, "SIGTERM");
      } catch {
        // already gone
      }
    }
  }
}

async function request<T = unknown>(base: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const { value } = (await response.json()) as { value: T & { error?: string; message?: string } };
  if (!response.ok) throw new Error(`WebDriver ${method} ${path}: ${value.error}: ${value.message}`);
  return value;
}

export interface Viewport {
  width: number;
  height: number;
}

export function launch(engine: Engine, viewport: Viewport = { width: 1024, height: 900 }): Promise<Driver> {
  return engine === "webkit" ? WebDriverClassic.start(viewport) : puppeteerDriver(engine, viewport);
}
