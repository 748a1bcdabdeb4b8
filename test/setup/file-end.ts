/** A setup file of every project: what test/helpers/file-end.ts collected runs at each file's end. */
import { afterAll } from 'vitest';
import { runFileEnd } from '../helpers/file-end.js';

afterAll(runFileEnd);
