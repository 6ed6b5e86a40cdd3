import { describe, expect, it } from 'vitest';
import { breakdown } from './breakdown.ts';
import { judge, NGINX, type Measure } from './judge.ts';

const MB = 1e6;
const POST = 'ours POST images';
const TUS = 'ours tus, one PATCH';

/** A measure of `mbPerSecond` on a 100 MB file. */
const measure = (run: number, system: string, mbPerSecond: number, load = 0.5): Measure => ({
  run,
  system,
  load,
  seconds: 100 / mbPerSecond,
  bytes: 100 * MB,
});

const runOf = (run: number, post: number, tus: number, nginx: number, load = 0.5) => [
  measure(run, POST, post, load),
  measure(run, NGINX, nginx, load),
  measure(run, TUS, tus, load),
  measure(run, NGINX, nginx, load),
];

describe('upload bench: the goal against nginx', () => {
  it('compares each of our measures with the nginx measure right after it, in the same run only', () => {
    const measures = [
      measure(1, POST, 80),
      measure(1, NGINX, 100),
      measure(1, TUS, 150),
      measure(1, NGINX, 200),
      measure(1, 'ours POST images → S3', 50),
      measure(2, NGINX, 100),
    ];
    const { shares } = judge(measures);
    expect(shares[0]).toBeCloseTo(0.8);
    expect(shares[2]).toBeCloseTo(0.75);
    expect(shares[4]).toBeUndefined();
    expect(shares[1]).toBeUndefined();
  });

  it('says PASS only for three judged runs at 0.8× or more, and FAIL for any run below', () => {
    const passing = judge([...runOf(1, 90, 85, 100), ...runOf(2, 80, 95, 100), ...runOf(3, 120, 81, 100)]);
    expect(passing.overall[POST]).toMatch(/^PASS \(/);
    expect(passing.overall[TUS]).toMatch(/^PASS \(/);

    const oneRun = judge(runOf(1, 90, 85, 100));
    expect(oneRun.overall[POST]).toMatch(/^not judged: PASS in 1 of the 3 runs/);

    const failing = judge([...runOf(1, 90, 70, 100), ...runOf(2, 90, 90, 100), ...runOf(3, 90, 90, 100)]);
    expect(failing.verdicts[2]).toBe('FAIL');
    expect(failing.overall[TUS]).toMatch(/^FAIL \(/);
    expect(failing.overall[POST]).toMatch(/^PASS \(/);
  });

  it('judges no pair whose load average before either measure was above 2', () => {
    const measures = [
      ...runOf(1, 90, 90, 100),
      measure(2, POST, 90, 2.5),
      measure(2, NGINX, 100, 0.5),
      measure(2, TUS, 50, 0.5),
      measure(2, NGINX, 100, 3.1),
      ...runOf(3, 90, 90, 100),
    ];
    const { verdicts, overall } = judge(measures);
    expect(verdicts[4]).toBe('load too high to judge (2.50 > 2)');
    // Far below the goal, but nginx's figure came from a loaded machine: no FAIL either.
    expect(verdicts[6]).toBe('load too high to judge (3.10 > 2)');
    expect(overall[POST]).toMatch(/^load too high to judge \(/);
    expect(overall[TUS]).toMatch(/^load too high to judge \(/);
  });
});

describe("upload bench: where the browser's time goes", () => {
  it('splits an upload into the creation, sending, waiting for answers and the steps between', () => {
    // 300 bytes in PATCHes of 200: the first done sending at 1060 ms, the second at 1900 ms.
    const figures = breakdown(
      {
        start: 0,
        end: 2410,
        imageId: 'image',
        progress: [
          [500, 0.3],
          [1060, 2 / 3],
          [1500, 0.8],
          [1900, 1],
        ],
        requests: [
          { name: 'creation', startTime: 0, requestStart: 1, responseStart: 49, responseEnd: 50 },
          { name: 'patch 1', startTime: 60, requestStart: 61, responseStart: 1099, responseEnd: 1100 },
          { name: 'patch 2', startTime: 1110, requestStart: 1111, responseStart: 2399, responseEnd: 2400 },
        ],
      },
      300,
      200,
    );
    expect(figures).toMatchObject({ patches: 2, creation: 0.05, lastAnswer: 0.5 });
    expect(figures.sending).toBeCloseTo(1.79);
    expect(figures.answers).toBeCloseTo(0.54);
    expect(figures.between).toBeCloseTo(0.03);
    expect(figures.creation + figures.sending + figures.answers + figures.between).toBeCloseTo(figures.seconds);
  });
});
