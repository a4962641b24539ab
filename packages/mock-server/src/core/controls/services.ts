/**
 * What the developer controls (`/__mock`) may use of the engine: the document, the sections and their control
 * routes, the configured clients, the sessions, links and events. The engine implements it; the controls import
 * this interface, never the engine.
 */
import type { LinkServices } from "../context.ts";
import type { OpenApiDocument, OperationSpec } from "../document.ts";
import type { EventListeners } from "../events.ts";
import type { ClientConfig } from "../oauth.ts";
import type { Router } from "../router.ts";
import type { SectionModule } from "../section.ts";
import type { MockSession } from "../session.ts";
import type { ControlRoute } from "../types.ts";

export interface ControlServices {
  readonly document: OpenApiDocument;
  readonly operations: readonly OperationSpec[];
  readonly sections: readonly SectionModule[];
  readonly options: { readonly clients: ClientConfig[]; readonly controls?: ControlRoute[] };
  readonly controlRoutes: Router<{ section: SectionModule | null; route: ControlRoute }>;
  listSessions(): MockSession[];
  dropSession(id: string): boolean;
  /** Where a control route's handler context makes its links. */
  readonly links: LinkServices;
  /** The event listeners a control's events are published to (at once). */
  readonly events: EventListeners;
}
