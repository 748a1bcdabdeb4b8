/**
 * The timestamp literal rule, alone.
 */
import { describe, expect, it } from 'vitest';
import { isTimestampLiteral } from '../../../src/index.js';

describe('isTimestampLiteral', () => {
  it.each([
    '2024', '2024-05', '2024-05-01', '2024-05-01T10', '2024-05-01T10:30', '2024-05-01T10:30:00',
    '0001', '9999-12-31T23:59:59', '2024-02-29', '2000-02-29', '2400-02-29', '2023-02-28', '2023-04-30', '2024-05-01T00:00:00',
  ])('accepts %s', (text) => {
    expect(isTimestampLiteral(text)).toBe(true);
  });

  it.each([
    '', '0000', '0000-01', '2024-13', '2024-00', '2024-5', '2024-05-1', '2023-02-29', '1900-02-29', '2100-02-29', '2024-04-31',
    '2024-05-00', '2024-05-32', '2024-05-01T24', '2024-05-01T10:60', '2024-05-01T10:30:60', '2024-05-01T1', '2024-05-01 10',
    '2024-05-01t10', '2024-05-01T10:30:00Z', '2024-05-01T10:30:00.5', '10000', '-2024', ' 2024', '2024 ', '2024\n', '٢٠٢٤', '２０２４',
  ])('refuses %j', (text) => {
    expect(isTimestampLiteral(text)).toBe(false);
  });

  it('agrees with the calendar on every day of a leap and a common year', () => {
    for (const year of [2023, 2024, 1900, 2000]) {
      for (let month = 1; month <= 12; month++) {
        for (let day = 1; day <= 31; day++) {
          const date = new Date(Date.UTC(year, month - 1, day));
          const exists = date.getUTCMonth() === month - 1;
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          expect(isTimestampLiteral(text), text).toBe(exists);
        }
      }
    }
  });
});
