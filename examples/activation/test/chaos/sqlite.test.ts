import { chaos } from "./scenario.ts";

// One replica on its SQLite file (the default setup), killed and restarted five times.
chaos({ name: "SQLite", replicas: 1 }, 2929);
