import { chaos } from "./scenario.ts";

// Three replicas behind the balancer share one PostgreSQL (restarted once midway).
chaos({ name: "PostgreSQL", replicas: 3 }, 29);
