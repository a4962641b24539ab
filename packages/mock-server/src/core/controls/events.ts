/** Developer controls (`/__mock`): the webhook events this session emitted. */
import { type Control, json } from "./control.ts";

export const EVENTS_CONTROLS: Control[] = [
  {
    method: "GET",
    path: "/events",
    description: "Webhook events emitted in this session (newest last, up to 1000); ?type= filters.",
    run: ({ session, url, logId }) => {
      const type = url.searchParams.get("type");
      return json(200, { items: session.events.list(type ?? undefined) }, logId);
    },
  },
];
