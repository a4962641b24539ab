import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

type Obj = Record<string, unknown>;

/**
 * Validates a tool's arguments against its input schema (from the contract) and, when they do not fit, says in
 * one English paragraph what is wrong and what to send instead — the text a model reads in an `isError` tool
 * result to correct its next call.
 */
export class ArgumentChecker {
  private readonly validate: ValidateFunction;
  private readonly properties: Obj;

  constructor(
    private readonly tool: string,
    schema: Obj,
    /** A valid call's arguments, quoted in the message as "send, e.g., …". */
    private readonly example: Obj,
  ) {
    this.validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    this.properties = (schema.properties as Obj | undefined) ?? {};
  }

  /** `null` when the arguments fit, else the message. */
  check(args: unknown): string | null {
    if (this.validate(args)) return null;
    const problems = [...new Set((this.validate.errors ?? []).map((e) => this.describe(e, args as Obj)))];
    const names = Object.keys(this.properties);
    const takes =
      names.length === 0
        ? `${this.tool} takes no arguments: send {}.`
        : `${this.tool} takes ${names.map((n) => `\`${n}\``).join(" and ")}; send, e.g., ${JSON.stringify(this.example)}.`;
    return `Invalid arguments for ${this.tool}: ${problems.join(" ")} ${takes}`;
  }

  private describe(error: ErrorObject, args: Obj): string {
    const name = error.instancePath.replace(/^\//, "").replace(/~1/g, "/").replace(/~0/g, "~");
    const field = `\`${name}\``;
    const got = name && args && typeof args === "object" ? args[name] : args;
    const shown = JSON.stringify(got)?.slice(0, 80) ?? String(got);
    const p = error.params as Obj;
    switch (error.keyword) {
      case "required":
        return `\`${String(p.missingProperty)}\` is required.`;
      case "additionalProperties":
        return `\`${String(p.additionalProperty)}\` is not an argument of ${this.tool}.`;
      case "type":
        return name
          ? `${field} must be a ${String(p.type)}, not ${shown}.`
          : `The arguments must be a JSON object, not ${shown}.`;
      case "enum":
        return `${field} must be one of ${(p.allowedValues as unknown[]).map((v) => `\`${String(v)}\``).join(", ")}; ${shown} is not.`;
      case "minLength":
        return Number(p.limit) === 1
          ? `${field} must not be empty.`
          : `${field} needs at least ${String(p.limit)} characters.`;
      case "maxLength":
        return `${field} is longer than ${String(p.limit)} characters.`;
      case "minimum":
      case "maximum": {
        const s = this.properties[name] as Obj | undefined;
        return `${field} must be between ${String(s?.minimum ?? "…")} and ${String(s?.maximum ?? "…")}, not ${shown}.`;
      }
      default:
        return `${field || "The arguments"} ${error.message ?? "do not fit the input schema"}.`;
    }
  }
}
