/** The token X's public embed script sends with tweet-result requests, derived from the id alone. */
export function syndicationToken(id: string): string {
  return ((Number(id) / 1e15) * Math.PI).toString(36).replace(/(0+|\.)/g, '');
}
