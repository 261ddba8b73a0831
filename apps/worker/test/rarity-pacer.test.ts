import { describe, expect, it } from 'vitest';
import { RarityPacer } from '../src/tasks/rarity-pacer';

describe('RarityPacer', () => {
  it('lets the first recompute run at once', () => {
    expect(new RarityPacer().waitMs('a', 1_000)).toBe(0);
  });

  it('holds the collection for 1/share − 1 times its computation, and the others for the overall share', () => {
    const pacer = new RarityPacer(0.1, 0.5);
    pacer.record('big', 10_000, 12_500); // 2.5 s
    expect(pacer.waitMs('big', 12_500)).toBe(22_500);
    expect(pacer.waitMs('small', 12_500)).toBe(2_500);
    expect(pacer.waitMs('small', 15_000)).toBe(0);
    expect(pacer.waitMs('big', 30_000)).toBe(5_000);
    expect(pacer.waitMs('big', 35_000)).toBe(0);
  });

  it('holds a quick computation back by milliseconds, and a later one by its own time', () => {
    const pacer = new RarityPacer(0.5, 1);
    pacer.record('c', 0, 20);
    expect(pacer.waitMs('c', 20)).toBe(20);
    expect(pacer.waitMs('d', 20)).toBe(0);
    expect(pacer.waitMs('c', 40)).toBe(0);
    pacer.record('c', 100, 400);
    expect(pacer.waitMs('c', 400)).toBe(300);
  });
});
