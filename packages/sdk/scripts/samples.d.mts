// Declarations of the sample generator, for its tests.
export interface Sample {
  method: string;
  path: string;
  label: string;
  lang: string;
  source: string;
  body: string;
}
export function literal(value: unknown, indent?: number): string;
export function renderSamples(operationsJson: unknown, openapiJson: unknown): Record<string, Sample>;
export function renderSamplesJson(samples: Record<string, Sample>): string;
export function renderSamplesModule(samples: Record<string, Sample>): string;
