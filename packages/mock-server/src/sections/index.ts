/**
 * The registry of section modules the engine binds by operationId. The shop is ours; the other sections
 * are added here as their modules land.
 */
import type { SectionModule } from "../core/types.ts";
import assets from "./assets/index.ts";
import bi from "./bi/index.ts";
import connections from "./connections/index.ts";
import entrance from "./entrance/index.ts";
import externalEntrance from "./external-entrance/index.ts";
import shop from "./shop/index.ts";
import survey from "./survey/index.ts";
import webhooks from "./webhooks/index.ts";

/** Every section, shop first (other sections read the shop's slice when they build their own state). */
export const defaultSections: SectionModule[] = [
  shop as SectionModule,
  entrance as SectionModule,
  externalEntrance as SectionModule,
  connections as SectionModule,
  survey as SectionModule,
  webhooks as SectionModule,
  assets as SectionModule,
  bi as SectionModule,
];
