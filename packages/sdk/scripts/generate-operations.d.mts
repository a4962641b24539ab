// Declarations of the build script, for the staleness test.
export const OUTPUT: string;
export const SCHEMA_OUTPUT: string;
export function responseMode(operation: unknown): "json" | "mixed" | "text" | "blob";
export function formBody(operation: unknown): boolean;
export function commaQueryParams(operation: unknown, openapiJson: unknown): string[];
export function renderSections(operationsJson: unknown, openapiJson: unknown): string;
export function renderSchema(schemaDts: string): string;
export function readContract(): { operations: unknown; openapi: unknown; schema: string; catalogue: unknown };
export function renderProblems(operationsJson: unknown, catalogue: unknown): string;
export function operationProblems(catalogue: unknown, operationId: string): string[];
export const PROBLEMS_OUTPUT: string;
export const SAMPLES_OUTPUT: string;
export const SAMPLES_MODULE_OUTPUT: string;
