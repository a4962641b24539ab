/**
 * The registry of section modules the engine binds by operationId. The shop is ours; the other sections
 * are added here as their modules land.
 */

import type { SectionModule } from "../core/section.ts";
import type { ControlRoute } from "../core/types.ts";
import assets from "./assets/index.ts";
import bi from "./bi/index.ts";
import connections from "./connections/index.ts";
import entrance from "./entrance/index.ts";
import externalEntrance from "./external-entrance/index.ts";
import shop from "./shop/index.ts";
import survey from "./survey/index.ts";
import webhooks from "./webhooks/index.ts";
import { webhooksSlice } from "./webhooks/state.ts";

/** Every section, shop first (other sections read the shop's slice when they build their own state). */
export const defaultSections: SectionModule[] = [
  shop,
  entrance,
  externalEntrance,
  connections,
  survey,
  webhooks,
  assets,
  bi,
];

/** Mock-only routes that read across sections (listed by `GET /__mock`). */
export const defaultControls: ControlRoute[] = [
  {
    method: "GET",
    path: "/webhooks/deliveries",
    description:
      "Every webhook delivery of this session with its attempts and exact body, newest first (?status=pending|succeeded|failed, ?type=).",
    handler: (ctx) => {
      const state = webhooksSlice(ctx.world);
      const status = typeof ctx.query.status === "string" ? ctx.query.status : undefined;
      const type = typeof ctx.query.type === "string" ? ctx.query.type : undefined;
      const items = [...state.deliveryOrder]
        .reverse()
        .map((id) => state.deliveries[id])
        .filter((d) => d !== undefined)
        .filter((d) => (status ? d.status === status : true) && (type ? d.eventType === type : true));
      return { status: 200, body: { items } };
    },
  },
];
