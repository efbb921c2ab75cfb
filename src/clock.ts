/** Milliseconds since epoch. Injected so tests can move time (monthly rollover, rate windows). */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
