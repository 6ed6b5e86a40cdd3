import { MAX_JSON_DEPTH } from '@pathology/contract';

/** Thrown when the bytes cannot be a JSON object whose `features` member is an array. */
export class NotAFeatureCollection extends Error {}

/** Thrown when a value nests arrays and objects deeper, counted from the file's top, than a JSON body may. */
export class NestedTooDeep extends NotAFeatureCollection {}

/**
 * Thrown when one value's text grows past the splitter's limit, before more of it is held: `feature` is the index in
 * `features` of the feature it is, undefined for another member of the FeatureCollection.
 */
export class ValueTooLarge extends Error {
  constructor(readonly feature: number | undefined) {
    super('a value of the FeatureCollection is larger than the limit');
  }
}

/** What the splitter hands on: each element of the top-level `features` array, and every other top-level member. */
export interface SplitSink {
  feature(text: string): void;
  member(key: string, text: string): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** Bytes that end a number, `true`, `false` or `null`, and that no value starts with. */
const isDelimiter = (byte: number) =>
  byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || byte === COLON;

/** Where the splitter is in the top-level object; `Value` while a value is read, whatever it belongs to. */
type At =
  | 'start'
  | 'keyOrEnd'
  | 'colon'
  | 'memberValue'
  | 'afterMember'
  | 'firstElement'
  | 'element'
  | 'afterElement'
  | 'value'
  | 'end';

/** What the value being read is. */
type Reading = 'key' | 'member' | 'feature';

const refuse = (why: string) => new NotAFeatureCollection(why);

/**
 * Splits a GeoJSON FeatureCollection, given as Buffers cut anywhere, into the JSON text of each element of its
 * top-level `features` array and of each other top-level member, for `JSON.parse`. It parses no value itself: it
 * follows only nesting depth and string state (quotes, escapes) to find where each value ends, so it runs at memory
 * speed where a token-by-token parser (stream-json, ~1.5 MB/s here) was the whole cost of an import. `JSON.parse`
 * then judges each value in full; the splitter judges the top level (one object, `features` an array, its commas
 * and colons, nothing after it). Only the value being read is held: memory is bounded by the largest feature, at most `maxValueBytes`.
 */
export class FeatureCollectionSplitter {
  private at: At = 'start';
  /** Bytes written before the current chunk, for the byte-order mark that may open the file. */
  private offset = 0;
  private reading: Reading = 'key';
  private key = '';
  /** After a comma a key must come, not `}`. */
  private keyDue = false;
  /** The value being read: its pieces in earlier chunks, its nesting depth and string state so far. */
  private pieces: Buffer[] = [];
  private piecesBytes = 0;
  /** Features read whole so far: the index of the one being read. */
  private features = 0;
  private depth = 0;
  /** Deepest nesting the value may reach: the file's top-level object, and the features array, count too. */
  private maxDepth = 0;
  private inString = false;
  private escaped = false;
  private scalar = false;

  constructor(
    private readonly sink: SplitSink,
    /** Largest text of one value (a feature, another member). */
    private readonly maxValueBytes = Infinity,
  ) {}

  /** Reads the next piece of the file. */
  write(chunk: Buffer): void {
    const { length } = chunk;
    let index = 0;
    while (index < length) {
      if (this.at === 'value') {
        const end = this.valueEnd(chunk, index);
        if (end < 0) {
          this.hold(chunk.subarray(index));
          break;
        }
        this.finishValue(chunk, index, end);
        index = end;
        continue;
      }
      const byte = chunk[index]!;
      const position = this.offset + index;
      const skipped = isWhitespace(byte) || (this.at === 'start' && position < 3 && byte === BYTE_ORDER_MARK[position]);
      // A value starts at this byte: it is read from here, this byte included.
      if (skipped || !this.step(byte)) index += 1;
    }
    this.offset += length;
  }

  /** The file has ended: so must its top-level object have. */
  end(): void {
    if (this.at !== 'end') throw refuse('the file ends inside the FeatureCollection');
  }

  /** One byte of the top-level structure; true when a value starts at it. */
  private step(byte: number): boolean {
    switch (this.at) {
      case 'start':
        return this.expect(byte === OPEN_BRACE, 'keyOrEnd');
      case 'keyOrEnd':
        if (byte === CLOSE_BRACE && !this.keyDue) return this.expect(true, 'end');
        return this.startValue(byte, 'key', byte === QUOTE);
      case 'colon':
        return this.expect(byte === COLON, 'memberValue');
      case 'memberValue':
        if (this.key === 'features') return this.expect(byte === OPEN_BRACKET, 'firstElement');
        return this.startValue(byte, 'member', !isDelimiter(byte));
      case 'afterMember':
        this.keyDue = byte === COMMA;
        return this.expect(byte === COMMA || byte === CLOSE_BRACE, byte === COMMA ? 'keyOrEnd' : 'end');
      case 'firstElement':
        if (byte === CLOSE_BRACKET) return this.expect(true, 'afterMember');
        return this.startValue(byte, 'feature', !isDelimiter(byte));
      case 'element':
        return this.startValue(byte, 'feature', !isDelimiter(byte));
      case 'afterElement':
        return this.expect(byte === COMMA || byte === CLOSE_BRACKET, byte === COMMA ? 'element' : 'afterMember');
      case 'value':
      case 'end':
        throw refuse('there is more after the FeatureCollection');
    }
  }

  /** Keeps a piece of the value being read, unless the value has grown too large to keep. */
  private hold(piece: Buffer): void {
    this.piecesBytes += piece.length;
    if (this.piecesBytes > this.maxValueBytes) {
      throw new ValueTooLarge(this.reading === 'feature' ? this.features : undefined);
    }
    this.pieces.push(piece);
  }

  private expect(allowed: boolean, next: At): false {
    if (!allowed) throw refuse('the file is not a JSON object with a features array');
    this.at = next;
    return false;
  }

  private startValue(byte: number, reading: Reading, allowed: boolean): true {
    this.expect(allowed, 'value');
    this.reading = reading;
    this.pieces = [];
    this.piecesBytes = 0;
    this.depth = 0;
    this.maxDepth = MAX_JSON_DEPTH - (reading === 'feature' ? 2 : 1);
    this.inString = false;
    this.escaped = false;
    this.scalar = byte !== QUOTE && byte !== OPEN_BRACE && byte !== OPEN_BRACKET;
    return true;
  }

  /**
   * Where the value being read ends in `chunk` (the index after its last byte), reading on from `from`; -1 when it
   * goes on past the chunk. The hot loop of an import: one comparison or two per byte.
   */
  private valueEnd(chunk: Buffer, from: number): number {
    const { length } = chunk;
    if (this.scalar) {
      for (let index = from; index < length; index += 1) {
        const byte = chunk[index]!;
        if (isDelimiter(byte) || isWhitespace(byte)) return index;
      }
      return -1;
    }
    let { depth, inString, escaped } = this;
    for (let index = from; index < length; index += 1) {
      const byte = chunk[index]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) {
          inString = false;
          if (depth === 0) return index + 1;
        }
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        depth += 1;
        if (depth > this.maxDepth) throw new NestedTooDeep('a value nests too deep');
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth -= 1;
        if (depth === 0) return index + 1;
      }
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    return -1;
  }

  private finishValue(chunk: Buffer, from: number, end: number): void {
    if (this.piecesBytes + end - from > this.maxValueBytes) {
      throw new ValueTooLarge(this.reading === 'feature' ? this.features : undefined);
    }
    const text =
      this.pieces.length === 0
        ? chunk.toString('utf8', from, end)
        : Buffer.concat([...this.pieces, chunk.subarray(from, end)]).toString('utf8');
    this.pieces = [];
    this.piecesBytes = 0;
    switch (this.reading) {
      case 'key':
        this.key = keyOf(text);
        this.at = 'colon';
        return;
      case 'member':
        this.at = 'afterMember';
        return this.sink.member(this.key, text);
      case 'feature':
        this.at = 'afterElement';
        this.features += 1;
        return this.sink.feature(text);
    }
  }
}

/** A member's key from its JSON text (escapes and all). */
function keyOf(text: string): string {
  try {
    return JSON.parse(text) as string;
  } catch {
    throw refuse('a key of the FeatureCollection is not a JSON string');
  }
}
