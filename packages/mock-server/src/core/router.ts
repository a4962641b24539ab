/**
 * A route tree compiled once from the OpenAPI document: static segments are tried before parameters,
 * so `/cart/{id}/items` and `/cart/payments` never shadow each other, and matching costs O(path depth)
 * whatever the number of operations.
 */

export interface RouteMatch<T> {
  route: T;
  params: Record<string, string>;
}

export type MatchResult<T> =
  | { kind: "found"; route: T; params: Record<string, string>; template: string }
  | { kind: "method-not-allowed"; allow: string[]; template: string }
  | { kind: "not-found" };

interface Node<T> {
  statics: Map<string, Node<T>>;
  /** Segments mixing text and parameters, e.g. `{ticketId}.pdf`; tried after statics, before `param`. */
  patterns: Array<{ source: string; regex: RegExp; node: Node<T> }>;
  param: { name: string; node: Node<T> } | null;
  methods: Map<string, T> | null;
  template: string | null;
}

function newNode<T>(): Node<T> {
  return { statics: new Map(), patterns: [], param: null, methods: null, template: null };
}

const PARAM = /^\{([^}]+)\}$/;
const INNER_PARAM = /\{([^}]+)\}/g;

function segmentRegex(segment: string): RegExp {
  let source = "";
  let last = 0;
  for (const match of segment.matchAll(INNER_PARAM)) {
    source += segment.slice(last, match.index).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    source += "([^/]+?)";
    last = (match.index ?? 0) + match[0].length;
  }
  source += segment.slice(last).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${source}$`);
}

export class Router<T> {
  private readonly root: Node<T> = newNode();
  /**
   * Matches of paths without parameters, by method and path: a polled list or a repeated write to a fixed path
   * walks the tree once. Bounded by the document (one entry per parameter-free template and method, HEAD included);
   * cleared when a route is added. Keyed by method, then path: a key made of both was a new string to hash for every
   * request, also for the many paths that are not fixed (each cart's own).
   */
  private readonly fixed = new Map<string, Map<string, { route: T; template: string }>>();

  /** Adds `method template` (template like `/shop/v1/cart/{id}`). Whole-segment parameters only. */
  add(method: string, template: string, route: T): void {
    this.fixed.clear();
    let node = this.root;
    for (const segment of template.split("/").slice(1)) {
      const param = PARAM.exec(segment);
      if (!param && segment.includes("{")) {
        let pattern = node.patterns.find((p) => p.source === segment);
        if (!pattern) {
          pattern = { source: segment, regex: segmentRegex(segment), node: newNode() };
          node.patterns.push(pattern);
        }
        node = pattern.node;
      } else if (param) {
        const name = param[1] ?? "";
        // Templates may name the same position differently; names are read per template at match time.
        if (!node.param) node.param = { name, node: newNode() };
        node = node.param.node;
      } else {
        let next = node.statics.get(segment);
        if (!next) {
          next = newNode();
          node.statics.set(segment, next);
        }
        node = next;
      }
    }
    node.methods ??= new Map();
    node.methods.set(method.toUpperCase(), route);
    node.template = template;
  }

  /**
   * Matches a raw (still percent-encoded) pathname. Parameters are decoded; a segment that does not
   * decode, or decodes to something containing "/", "\\" or a NUL, or is "." / "..", never matches.
   */
  match(method: string, pathname: string): MatchResult<T> {
    const upper = method.toUpperCase();
    const known = this.fixed.get(upper)?.get(pathname);
    // (A fresh `params` for each match: callers own it.)
    if (known) return { kind: "found", route: known.route, params: {}, template: known.template };
    const result = this.walkMatch(upper, pathname);
    if (result.kind === "found" && result.template === pathname) {
      let paths = this.fixed.get(upper);
      if (!paths) {
        paths = new Map();
        this.fixed.set(upper, paths);
      }
      paths.set(pathname, { route: result.route, template: result.template });
    }
    return result;
  }

  /** (`method` upper-cased.) */
  private walkMatch(method: string, pathname: string): MatchResult<T> {
    const segments = pathname.split("/");
    if (segments[0] !== "") return { kind: "not-found" };
    const values: string[] = [];
    const found = this.walk(this.root, segments, 1, values);
    if (!found?.methods || !found.template) return { kind: "not-found" };
    const route = found.methods.get(method) ?? (method === "HEAD" ? found.methods.get("GET") : undefined);
    if (route === undefined) {
      return { kind: "method-not-allowed", allow: [...found.methods.keys()], template: found.template };
    }
    const params: Record<string, string> = {};
    if (values.length > 0) {
      const names = paramNames(found.template);
      for (let i = 0; i < names.length; i++) params[names[i] ?? ""] = values[i] ?? "";
    }
    return { kind: "found", route, params, template: found.template };
  }

  private walk(node: Node<T>, segments: string[], index: number, values: string[]): Node<T> | null {
    if (index === segments.length) return node.methods ? node : null;
    const segment = segments[index] ?? "";
    const stat = node.statics.get(segment);
    if (stat) {
      const hit = this.walk(stat, segments, index + 1, values);
      if (hit) return hit;
    }
    for (const pattern of node.patterns) {
      const m = pattern.regex.exec(segment);
      if (!m) continue;
      const decoded = m.slice(1).map((v) => decodeSegment(v));
      if (decoded.some((v) => v === null)) continue;
      values.push(...(decoded as string[]));
      const hit = this.walk(pattern.node, segments, index + 1, values);
      if (hit) return hit;
      values.length -= decoded.length;
    }
    if (node.param && segment !== "") {
      const decoded = decodeSegment(segment);
      if (decoded === null) return null;
      values.push(decoded);
      const hit = this.walk(node.param.node, segments, index + 1, values);
      if (hit) return hit;
      values.pop();
    }
    return null;
  }
}

const namesCache = new Map<string, string[]>();
function paramNames(template: string): string[] {
  let names = namesCache.get(template);
  if (!names) {
    names = [];
    for (const segment of template.split("/")) {
      for (const m of segment.matchAll(INNER_PARAM)) names.push(m[1] ?? "");
    }
    namesCache.set(template, names);
  }
  return names;
}

function decodeSegment(segment: string): string | null {
  let decoded = segment;
  if (segment.includes("%")) {
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return null;
    }
  }
  if (decoded === "." || decoded === ".." || /[/\\\0]/.test(decoded)) return null;
  return decoded;
}
