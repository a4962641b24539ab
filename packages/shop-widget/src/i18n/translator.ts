import type { Locale } from "../config";

export type Namespace = "core" | "checkout";
export type TOptions = { ns?: Namespace | Namespace[]; count?: unknown } & Record<string, unknown>;
export type TFunction = (key: string, options?: TOptions) => string;
type Loader = (locale: Locale, namespace: Namespace) => Promise<object>;

/**
 * The widget's translator: nested keys, `{{name}}` placeholders, `_one`/`_other`… plural suffixes chosen by
 * `Intl.PluralRules`, two namespaces (`checkout` falls back to `core`) loaded on demand, and a live language
 * switch that loads the new texts before it changes anything (so the old texts stay until the new arrive).
 *
 * Written here rather than kept on i18next: replacing it took the npm first load from 35,822 to 21,106 bytes
 * gzip (bench/size.mjs), and the first load must leave room under 32 KB for the SDK transport. The small
 * libraries (rosetta, @nanostores/i18n) lack plural rules, namespaces or lazy loading, which is most of this
 * file. Resources keep the i18next JSON format, so the texts did not change.
 */
export class Translator {
  language: Locale;
  readonly #texts = new Map<string, object>();
  readonly #namespaces = new Set<Namespace>();
  readonly #listeners = new Set<() => void>();
  readonly #plurals = new Map<string, Intl.PluralRules>();

  constructor(
    language: Locale,
    readonly load: Loader,
  ) {
    this.language = language;
  }

  /** Loads `namespace` for the current language (and keeps loading it for later languages). */
  async loadNamespace(namespace: Namespace): Promise<void> {
    this.#namespaces.add(namespace);
    await this.#ensure(this.language, [namespace]);
    this.#emit();
  }

  hasLoadedNamespace(namespace: Namespace): boolean {
    return this.#texts.has(`${this.language}/${namespace}`);
  }

  /** Loads every namespace in use for `language`, then switches (one change event). */
  async changeLanguage(language: Locale): Promise<void> {
    await this.#ensure(language, [...this.#namespaces]);
    this.language = language;
    this.#emit();
  }

  on(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A `t` bound to one language and namespace. */
  getFixedT(language: Locale, namespace: Namespace = "core"): TFunction {
    return (key, options) => this.translate(language, options?.ns ?? namespace, key, options);
  }

  t(key: string, options?: TOptions): string {
    return this.translate(this.language, options?.ns ?? "core", key, options);
  }

  translate(
    language: Locale,
    namespace: Namespace | Namespace[],
    key: string,
    options: TOptions = {},
  ): string {
    const count = options.count;
    let rules = this.#plurals.get(language);
    if (rules === undefined) {
      rules = new Intl.PluralRules(language);
      this.#plurals.set(language, rules);
    }
    const keys = typeof count === "number" ? [`${key}_${rules.select(count)}`, `${key}_other`, key] : [key];
    // The namespaces asked for, then `core` (the fallback).
    const spaces = [...(Array.isArray(namespace) ? namespace : [namespace]), "core"];
    for (const space of spaces) {
      const root = this.#texts.get(`${language}/${space}`);
      for (const candidate of keys) {
        const value = candidate
          .split(".")
          .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], root);
        if (typeof value === "string") {
          return value.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
            name in options ? String(options[name]) : whole,
          );
        }
      }
    }
    return key;
  }

  async #ensure(language: Locale, namespaces: Namespace[]): Promise<void> {
    await Promise.all(
      namespaces.map(async (namespace) => {
        const id = `${language}/${namespace}`;
        if (!this.#texts.has(id)) this.#texts.set(id, await this.load(language, namespace));
      }),
    );
  }

  #emit() {
    for (const listener of this.#listeners) listener();
  }
}
