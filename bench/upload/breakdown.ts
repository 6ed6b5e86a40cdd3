/** One request as the page's Resource Timing saw it (page time, ms). */
export interface PageRequest {
  name: string;
  startTime: number;
  requestStart: number;
  responseStart: number;
  responseEnd: number;
}

/** What the page reports of one upload through the app's code (page time, ms). */
export interface PageResult {
  start: number;
  end: number;
  /** [page time, fraction sent] as the transport reported it. */
  progress: [number, number][];
  /** The tus requests: the creation, then the PATCHes. */
  requests: PageRequest[];
  imageId: string;
}

/** Where the browser's time went, in seconds; all but `lastAnswer` add up to `seconds`. */
export interface BrowserBreakdown {
  seconds: number;
  imageId: string;
  patches: number;
  /** The creation request. */
  creation: number;
  /** PATCH bodies leaving the browser: from the request's start to the upload progress reaching its last byte. */
  sending: number;
  /** From a PATCH's last byte to its answer (the server finishing the request); the last PATCH's is `lastAnswer`. */
  answers: number;
  lastAnswer: number;
  /** Before the creation, between one answer and the next request, and after the last answer (the app's steps). */
  between: number;
}

/** When the transport first reported `bytes` sent (page time), or its last report. */
function sentAt(progress: [number, number][], size: number, bytes: number): number {
  const reached = progress.find(([, fraction]) => fraction * size >= bytes - 1);
  return (reached ?? progress.at(-1) ?? [0])[0];
}

/** Splits an upload of `size` bytes in PATCHes of `chunkBytes` into the parts of BrowserBreakdown. */
export function breakdown(result: PageResult, size: number, chunkBytes: number): BrowserBreakdown {
  const [creation, ...patches] = result.requests;
  if (creation == null || patches.length === 0) throw new Error('the page made no tus requests');
  let sending = 0;
  let answers = 0;
  let lastAnswer = 0;
  let between = creation.startTime - result.start;
  let previousEnd = creation.responseEnd;
  patches.forEach((request, index) => {
    const lastByte = Math.min(size, (index + 1) * chunkBytes);
    const sent = Math.min(request.responseEnd, Math.max(request.startTime, sentAt(result.progress, size, lastByte)));
    between += request.startTime - previousEnd;
    sending += sent - request.startTime;
    answers += request.responseEnd - sent;
    if (index === patches.length - 1) lastAnswer = request.responseEnd - sent;
    previousEnd = request.responseEnd;
  });
  between += result.end - previousEnd;
  const seconds = (ms: number) => ms / 1000;
  return {
    seconds: seconds(result.end - result.start),
    imageId: result.imageId,
    patches: patches.length,
    creation: seconds(creation.responseEnd - creation.startTime),
    sending: seconds(sending),
    answers: seconds(answers),
    lastAnswer: seconds(lastAnswer),
    between: seconds(between),
  };
}
