// What the charts and the page around them share: the colours of a status, the rows a chart shows.

export const STATUS_COLOR: Record<string, string> = {
  succeeded: '#2e7d32',
  failed: '#c62828',
  skipped: '#9e9e9e',
};

/** More rows than this make a chart nobody reads; the table below it lists every activity. */
export const MAX_TIMELINE_ROWS = 150;
