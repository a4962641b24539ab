import type { ColumnChunk, SchemaElement } from "hyparquet";
import { ByteWriter } from "hyparquet-writer";
import { writePageHeader } from "hyparquet-writer/src/datapage.js";
import { writeRleBitPackedHybrid } from "hyparquet-writer/src/encoding.js";
import { snappyCompress } from "hyparquet-writer/src/snappy.js";
import type { ColumnBuffer } from "./parquet-columns.ts";

/**
 * One column chunk of a row group, written straight from its typed buffer (`parquet-columns.ts`): an optional
 * dictionary page (text with few distinct values), then one DATA_PAGE_V2 with the definition levels (RLE, for
 * OPTIONAL columns) and the values, PLAIN or as dictionary indexes (RLE_DICTIONARY), Snappy-compressed. The page
 * format, Snappy and the footer are hyparquet-writer's; what is ours is that no JavaScript value is made per row.
 */

/** Scratch writers, reused by every chunk of the file. */
export interface ChunkScratch {
  levels: ByteWriter;
  values: ByteWriter;
  defs: Uint8Array;
}

export function chunkScratch(): ChunkScratch {
  return { levels: new ByteWriter(), values: new ByteWriter(), defs: new Uint8Array(1024) };
}

const reset = (w: ByteWriter) => {
  w.index = 0;
  w.offset = 0;
};

function page(
  writer: ByteWriter,
  header: Parameters<typeof writePageHeader>[1],
  levels: Uint8Array,
  body: Uint8Array,
) {
  writePageHeader(writer, header);
  writer.appendBytes(levels);
  writer.appendBytes(body);
}

export function writeChunk(
  writer: ByteWriter,
  element: SchemaElement,
  buffer: ColumnBuffer,
  scratch: ChunkScratch,
): ColumnChunk {
  const start = writer.offset;
  const { count, nulls } = buffer;
  const { levels, values } = scratch;
  reset(levels);
  reset(values);
  let nullCount = 0;
  let levelBytes = 0;
  if (element.repetition_type === "OPTIONAL") {
    if (scratch.defs.length < count) scratch.defs = new Uint8Array(count * 2);
    const defs = scratch.defs.subarray(0, count);
    for (let i = 0; i < count; i++) {
      defs[i] = nulls[i] ? 0 : 1;
      nullCount += nulls[i] as number;
    }
    levelBytes = writeRleBitPackedHybrid(levels, defs, 1);
  }

  let uncompressed = 0;
  let dictionaryOffset: bigint | undefined;
  let encoding: "PLAIN" | "RLE_DICTIONARY" = "PLAIN";
  const dictionary = buffer.dictionary?.();
  if (dictionary) {
    dictionaryOffset = BigInt(writer.offset);
    const plain = dictionary.values.getBytes();
    const packed = snappyCompress(plain);
    const headerStart = writer.offset;
    page(
      writer,
      {
        type: "DICTIONARY_PAGE",
        uncompressed_page_size: plain.length,
        compressed_page_size: packed.length,
        dictionary_page_header: { num_values: dictionary.size, encoding: "PLAIN" },
      },
      new Uint8Array(0),
      packed,
    );
    uncompressed += writer.offset - headerStart - packed.length + plain.length;
    const bitWidth = Math.ceil(Math.log2(dictionary.size));
    values.appendUint8(bitWidth);
    writeRleBitPackedHybrid(values, dictionary.indexes, bitWidth);
    encoding = "RLE_DICTIONARY";
  } else {
    buffer.plain(values, element);
  }

  const dataOffset = BigInt(writer.offset);
  const body = values.getBytes();
  const packed = snappyCompress(body);
  const headerStart = writer.offset;
  page(
    writer,
    {
      type: "DATA_PAGE_V2",
      uncompressed_page_size: levelBytes + body.length,
      compressed_page_size: levelBytes + packed.length,
      data_page_header_v2: {
        num_values: count,
        num_nulls: nullCount,
        num_rows: count,
        encoding,
        definition_levels_byte_length: levelBytes,
        repetition_levels_byte_length: 0,
        is_compressed: true,
      },
    },
    levels.getBytes(),
    packed,
  );
  uncompressed += writer.offset - headerStart - packed.length + body.length;
  const range = buffer.range();
  return {
    file_offset: BigInt(start),
    meta_data: {
      type: element.type as NonNullable<SchemaElement["type"]>,
      encodings: dictionary ? ["PLAIN", "RLE", "RLE_DICTIONARY"] : ["PLAIN", "RLE"],
      path_in_schema: [element.name],
      codec: "SNAPPY",
      num_values: BigInt(count),
      total_uncompressed_size: BigInt(uncompressed),
      total_compressed_size: BigInt(writer.offset - start),
      data_page_offset: dataOffset,
      dictionary_page_offset: dictionaryOffset,
      statistics: {
        null_count: BigInt(nullCount),
        ...(range ? { min_value: range.min, max_value: range.max } : {}),
      } as NonNullable<ColumnChunk["meta_data"]>["statistics"],
    },
  };
}
