import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/global-setup.ts'],
    // The JSON report lets .ci/run print the plain 'N passed, N failed' line.
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-report.json' }]],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    typecheck: {
      enabled: true,
      include: ['test/types/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
