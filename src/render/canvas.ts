// The container around the card (aspectRatio, height, containerBackground, backgroundImage,
// containerPadding): its geometry from the card's measured size, and its tree.
import { parseBackground } from './background.ts';
import { hasContainer, type RenderOptionsFull } from './options.ts';
import { box, img, type El, type Style } from './tree.ts';

const DEFAULT_PADDING = 16;

export interface CanvasPlan {
  width: number;
  height: number;
  /** Where the card goes and how much it is scaled down (1: not at all). */
  x: number;
  y: number;
  scale: number;
  cardWidth: number;
  cardHeight: number;
  /** Canonical CSS: a colour or a linear-gradient; transparent when none was asked for. */
  background: string;
}

type CanvasOptions = Pick<
  RenderOptionsFull,
  'aspectRatio' | 'height' | 'containerBackground' | 'backgroundImage' | 'containerPadding'
>;

/**
 * The canvas for a card of `cardWidth`×`cardHeight` CSS px, or null when no container is drawn.
 * The canvas is as wide as the card plus padding; its height comes from the aspect ratio, the
 * fixed height, or the card. A card that does not fit is scaled down, never cut.
 */
export function planCanvas(o: CanvasOptions, cardWidth: number, cardHeight: number): CanvasPlan | null {
  if (!hasContainer(o as RenderOptionsFull)) return null;
  const pad = o.containerPadding ?? DEFAULT_PADDING;
  let width = cardWidth + 2 * pad;
  let height = Math.ceil(cardHeight) + 2 * pad;
  const ratio = o.aspectRatio === 'auto' ? null : o.aspectRatio.split(':').map(Number);
  if (o.height !== 'auto') {
    height = o.height;
    if (ratio) width = Math.round((height * ratio[0]) / ratio[1]);
  } else if (ratio) height = Math.round((width * ratio[1]) / ratio[0]);
  // Padding never takes more than half of either side, so a small canvas still shows the card.
  const padX = Math.min(pad, Math.floor(width / 4));
  const padY = Math.min(pad, Math.floor(height / 4));
  const scale = Math.min(1, (width - 2 * padX) / cardWidth, (height - 2 * padY) / cardHeight);
  return {
    width,
    height,
    scale,
    x: (width - cardWidth * scale) / 2,
    y: (height - cardHeight * scale) / 2,
    cardWidth,
    cardHeight,
    background: canonicalBackground(o.containerBackground),
  };
}

/** Parsed again here so a caller that skipped parseOptions (CLI, tests) still draws canonical CSS. */
function canonicalBackground(value: string | undefined): string {
  if (value === undefined) return 'rgba(0,0,0,0)';
  const parsed = parseBackground(value.toLowerCase());
  if (!parsed.ok) throw new Error(`containerBackground ${parsed.reason}`);
  return parsed.css;
}

/**
 * The container's tree: background, background image (cover), and the card when given (HTML;
 * the SVG pipeline places the card's own drawing at plan.x/y instead).
 */
export function canvasTree(plan: CanvasPlan, backgroundImage?: string, card?: El): El {
  const fill: Style = plan.background.startsWith('linear-gradient(')
    ? { backgroundImage: plan.background }
    : { backgroundColor: plan.background };
  return box(
    { position: 'relative', width: plan.width, height: plan.height, ...fill },
    backgroundImage
      ? img(backgroundImage, plan.width, plan.height, { position: 'absolute', left: 0, top: 0, objectFit: 'cover' })
      : null,
    card
      ? box(
          {
            position: 'absolute',
            left: plan.x,
            top: plan.y,
            width: plan.cardWidth * plan.scale,
            height: plan.cardHeight * plan.scale,
          },
          plan.scale === 1
            ? card
            : box(
                {
                  position: 'absolute',
                  left: 0,
                  top: 0,
                  width: plan.cardWidth,
                  height: plan.cardHeight,
                  transform: `scale(${plan.scale})`,
                  transformOrigin: 'top left',
                },
                card,
              ),
        )
      : null,
  );
}
