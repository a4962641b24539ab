import type { Tool } from "../tool.ts";
import { noShowRatePerEvent } from "./no-show.ts";
import { peakEntryTimesPerGate } from "./peak-entry.ts";
import { salesPerEventAndDay } from "./sales.ts";

/**
 * The questions an organiser asks, each one aggregation on the feed (paged), arranged here from the groups it
 * returns — never from the dataset's rows — and read in a time zone: the venue's by default. The feed groups by
 * UTC day and hour (and minute, for a zone that is not a whole number of hours off UTC); each group is then one
 * local hour, so days and hours come out exact on daylight-saving days too.
 */

export const QUESTION_TOOLS: readonly Tool[] = [
  salesPerEventAndDay,
  noShowRatePerEvent,
  peakEntryTimesPerGate,
];
