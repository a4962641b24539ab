import type { BiExportProgress } from "./export.ts";

/** How an export format turns the feed's pages into bytes. */
export interface PageEncoding {
  /** Runs once before the first page (e.g. loading a writer on first use). */
  start?(): Promise<void>;
  /** The bytes of one page; may be empty when the format emits nothing yet (a row group still filling). */
  page(rows: readonly unknown[]): Uint8Array<ArrayBuffer>;
  /** The bytes after the last page (a footer, the header of an empty CSV), or null for none. */
  end(): Uint8Array<ArrayBuffer> | null;
}

/**
 * The byte stream of an export: one page in flight at most (the next page is fetched only when the consumer has
 * taken this one's bytes), progress after every page, cancelling stops the paging.
 */
export function pageByteStream(
  pages: AsyncGenerator<{ value: readonly unknown[]; count?: number | undefined }>,
  encoding: PageEncoding,
  onProgress: ((progress: BiExportProgress) => void) | undefined,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const progress: BiExportProgress = { rows: 0, pages: 0, bytes: 0, total: undefined };
  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      async start() {
        await encoding.start?.();
      },
      async pull(controller) {
        // A pull must enqueue or close, or the stream stalls: skip pages that produce no output (empty pages).
        for (;;) {
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
          const page = next.value;
          const chunk = encoding.page(page.value);
          progress.pages++;
          progress.rows += page.value.length;
          if (page.count !== undefined) progress.total = page.count;
          progress.bytes += chunk.length;
          onProgress?.({ ...progress });
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
