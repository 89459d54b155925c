import test from 'ava';
import fc from 'fast-check';
import { ExpiryHeap } from '../../src/adapters/expiry-heap.js';

test('yields every entry once, earliest first, only once it is due', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 200 }), fc.integer({ min: 0, max: 1000 }), (times, now) => {
        const heap = new ExpiryHeap<number>();
        for (const [index, at] of times.entries()) heap.push(`k${index}`, at, index);
        const popped: number[] = [];
        for (let due = heap.popDue(now); due !== undefined; due = heap.popDue(now)) {
          if (due.key !== `k${due.value}` || due.at !== times[due.value]) return false;
          popped.push(due.at);
        }
        const expected = times.filter((at) => at <= now).sort((a, b) => a - b);
        return JSON.stringify(popped) === JSON.stringify(expected) && heap.size === times.length - expected.length;
      }),
    ),
  );
});
