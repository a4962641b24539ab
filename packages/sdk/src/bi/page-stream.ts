import type { BiExportProgress, ODataPageBatches } from "./types.ts";

/** How an export format turns the feed's rows into bytes. */
export interface PageEncoding {
  /** Runs once before the first page (e.g. loading a writer on first use). */
  start?(): Promise<void>;
  /** The bytes of a batch of rows; may be empty when the format emits nothing yet (a row group still filling). */
  rows(rows: readonly unknown[]): Uint8Array<ArrayBuffer>;
  /** The bytes after the last page (a footer, the header of an empty CSV), or null for none. */
  end(): Uint8Array<ArrayBuffer> | null;
}

/** Sees every batch of rows before it is encoded (an incremental export follows its watermark so). */
export type RowObserver = (rows: readonly unknown[]) => void;

/**
 * The byte stream of an export: one page in flight at most (the next page is fetched only when the consumer has
 * taken the bytes of this one), its rows parsed and encoded one batch per read, so one batch of row objects is
 * alive at a time; progress after every page; cancelling stops the paging.
 */
export function pageByteStream(
  pages: AsyncGenerator<ODataPageBatches<unknown>>,
  encoding: PageEncoding,
  onProgress: ((progress: BiExportProgress) => void) | undefined,
  observe?: RowObserver,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const progress: BiExportProgress = { rows: 0, pages: 0, bytes: 0, total: undefined };
  let batches: Generator<unknown[], void, undefined> | undefined;
  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      async start() {
        await encoding.start?.();
      },
      async pull(controller) {
        // A pull must enqueue or close, or the stream stalls: go on until a batch produces output.
        for (;;) {
          if (!batches) {
            const next = await pages.next();
            if (next.done) {
              const tail = encoding.end();
              if (tail) {
                progress.bytes += tail.length;
                onProgress?.({ ...progress });
                controller.enqueue(tail);
              }
              controller.close();
              return;
            }
            if (next.value.count !== undefined) progress.total = next.value.count;
            batches = next.value.batches();
          }
          const batch = batches.next();
          if (batch.done) {
            batches = undefined;
            progress.pages++;
            onProgress?.({ ...progress });
            continue;
          }
          observe?.(batch.value);
          const chunk = encoding.rows(batch.value);
          progress.rows += batch.value.length;
          progress.bytes += chunk.length;
          if (chunk.length) {
            controller.enqueue(chunk);
            return;
          }
        }
      },
      async cancel() {
        await pages.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
