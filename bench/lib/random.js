/**
 * A small, fast, seeded generator (mulberry32), so that every run of a benchmark has the same
 * data: numbers in [0, 1), spread in 32-bit integer arithmetic (floats would lose bits).
 * @param {number} seed
 * @returns {() => number}
 */
export function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
