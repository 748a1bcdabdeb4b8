/**
 * How a CSV header is matched to an export format (docs/importing.md, "How a format is found"): the
 * formats whose source and target URL columns are all in it, then the one that knows the most of
 * its columns; and for a header that fits none, the closest format and its differing columns.
 * Headers and answers written by hand.
 */
import { describe, expect, it } from 'vitest';
import { closestFormat, exportFormatColumns, formatsOfHeader } from '../../../../src/server/import/formats.js';

describe('formatsOfHeader', () => {
  it.each([
    [['SOURCE URL', 'TARGET URL', 'NOFOLLOW'], ['semrush']],
    [['target url', 'source url', 'sourcetrustflow'], ['majestic']],
    [['Referring page URL', 'Target URL'], ['ahrefs']],
    [[' destination ', ' SOURCE '], ['screaming-frog']],
    [['Domain', 'Domain_Score'], ['domains']],
    // The same URL columns, and nothing else to tell them apart.
    [['Source url', 'Target url'], ['semrush', 'majestic']],
    // A column both know (Semrush's and Ahrefs' First seen) does not decide; one only Semrush knows does.
    [['Source url', 'Target url', 'First seen'], ['semrush']],
    [['Source url', 'Target url', 'Anchor Text'], ['majestic']],
    // Not a URL column of any format.
    [['Source', 'Target url'], []],
    [['source_url', 'target_url'], []],
  ])('%j: %j', (header, formats) => {
    expect(formatsOfHeader(header)).toEqual(formats);
  });
});

describe('closestFormat', () => {
  const formats = exportFormatColumns();

  it('names the format and the column one letter off, in one line', () => {
    expect(closestFormat(['Referring page ULR', 'Target URL', 'Domain rating'], formats)).toEqual({
      title: 'Ahrefs backlinks export (ahrefs)',
      lines: ['"Referring page ULR" is not a column of it; did you mean Referring page URL?'],
    });
  });

  it('names a required column missing, and for a strict format every name it does not know', () => {
    expect(closestFormat(['Source', 'Anchor', 'Follow'], formats)).toEqual({ title: 'Screaming Frog inlinks/outlinks export (screaming-frog)', lines: ['"Destination" is missing'] });
    expect(closestFormat(['domain', 'score', 'owner'], formats)).toEqual({
      title: 'domains file (domains)',
      lines: ['"score" is not a column of it', '"owner" is not a column of it', '"domain_score" is missing'],
    });
  });

  it('finds none for names that are neither columns of a format nor close to its required ones', () => {
    expect(closestFormat(['Link', 'Page'], formats)).toBeUndefined();
    expect(closestFormat([], formats)).toBeUndefined();
  });
});
