import type { ThemeName } from './options.ts';

export type { ThemeName };

export interface Theme {
  background: string;
  border: string;
  text: string;
  secondary: string;
  link: string;
  subtle: string;
  pollBar: string;
  pollBarWinner: string;
  placeholder: string;
}

// The colours of X's own post embed.
export const THEMES: Readonly<Record<ThemeName, Theme>> = Object.freeze({
  light: {
    background: '#ffffff',
    border: '#cfd9de',
    text: '#0f1419',
    secondary: '#536471',
    link: '#006fd6',
    subtle: '#f7f9f9',
    pollBar: '#cfd9de',
    pollBarWinner: '#8ecdf8',
    placeholder: '#e7ecf0',
  },
  // X's current dark theme: black.
  dark: {
    background: '#000000',
    border: '#2f3336',
    text: '#e7e9ea',
    secondary: '#71767b',
    link: '#1d9bf0',
    subtle: '#16181c',
    pollBar: '#333639',
    pollBarWinner: '#1a5d8a',
    placeholder: '#202327',
  },
  // X's dim theme (dark blue): the palette "dark" had before X went black.
  dim: {
    background: '#15202b',
    border: '#425364',
    text: '#f7f9f9',
    secondary: '#8b98a5',
    link: '#6bc9fb',
    subtle: '#1e2732',
    pollBar: '#425364',
    pollBarWinner: '#1d6a99',
    placeholder: '#253341',
  },
});
