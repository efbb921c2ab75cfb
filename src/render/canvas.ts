// The container around the card (aspectRatio, height, containerBackground, backgroundImage,
// containerPadding): its geometry, and the tree that holds the card, so the engine draws both in
// one pass and the HTML output is the same markup. Threat model: the fill is canonical CSS rebuilt
// by background.ts, the image bytes prepared by sharp; nothing from the query reaches CSS as is.
import { parseBackground } from './background.ts';
import { hasContainer, type RenderOptionsFull } from './options.ts';
import { box, img, type El, type ImageBytes, type Style } from './tree.ts';

const DEFAULT_PADDING = 16;

export interface CanvasPlan {
  width: number;
  /** null: as tall as the card plus padding (no aspect ratio or fixed height asked). */
  height: number | null;
  /** Space around the card when the canvas follows the card's height. */
  padding: number;
  /** Where the card's top left lands (flex centring puts it there) and how much it is scaled down. */
  x: number;
  y: number;
  scale: number;
  cardWidth: number;
  cardHeight: number | null;
  /** Canonical CSS: a colour or a linear-gradient; transparent when none was asked for. */
  background: string;
}

type CanvasOptions = Pick<
  RenderOptionsFull,
  'aspectRatio' | 'height' | 'containerBackground' | 'backgroundImage' | 'containerPadding'
>;

/**
 * The canvas for a card `cardWidth` CSS px wide, or null when no container is drawn. The canvas
 * is as wide as the card plus padding; its height comes from the aspect ratio or the fixed
 * height (then `cardHeight`, measured, says whether the card must be scaled down: it is never
 * cut), else from the card.
 */
export function planCanvas(o: CanvasOptions, cardWidth: number, cardHeight: number | null): CanvasPlan | null {
  if (!hasContainer(o as RenderOptionsFull)) return null;
  const pad = o.containerPadding ?? DEFAULT_PADDING;
  const background = canonicalBackground(o.containerBackground);
  let width = cardWidth + 2 * pad;
  const ratio = o.aspectRatio === 'auto' ? null : o.aspectRatio.split(':').map(Number);
  let height: number;
  if (o.height !== 'auto') {
    height = o.height;
    if (ratio) width = Math.round((height * ratio[0]) / ratio[1]);
  } else if (ratio) height = Math.round((width * ratio[1]) / ratio[0]);
  else return { width, height: null, padding: pad, x: pad, y: pad, scale: 1, cardWidth, cardHeight, background };
  if (cardHeight === null) throw new Error('planCanvas: a fixed canvas needs the card height');
  // Padding never takes more than half of either side, so a small canvas still shows the card.
  const padX = Math.min(pad, Math.floor(width / 4));
  const padY = Math.min(pad, Math.floor(height / 4));
  const scale = Math.min(1, (width - 2 * padX) / cardWidth, (height - 2 * padY) / cardHeight);
  const x = (width - cardWidth * scale) / 2;
  const y = (height - cardHeight * scale) / 2;
  return { width, height, padding: 0, x, y, scale, cardWidth, cardHeight, background };
}

/** Parsed again here so a caller that skipped parseOptions (CLI, tests) still draws canonical CSS. */
function canonicalBackground(value: string | undefined): string {
  if (value === undefined) return 'rgba(0,0,0,0)';
  const parsed = parseBackground(value.toLowerCase());
  if (!parsed.ok) throw new Error(`containerBackground ${parsed.reason}`);
  return parsed.css;
}

function fillOf(plan: CanvasPlan): Style {
  return plan.background.startsWith('linear-gradient(')
    ? { backgroundImage: plan.background }
    : { backgroundColor: plan.background };
}

function coverImage(image: ImageBytes | undefined): El | null {
  return image ? img(image, '100%', '100%', { position: 'absolute', left: 0, top: 0, objectFit: 'cover' }) : null;
}

/**
 * The container with the card centred on it: fill, background image (cover) and the card, one
 * tree for every format. A card scaled down keeps its own layout inside a box of its scaled size.
 * The card's box is positioned too, so it paints over the (positioned) background image.
 */
export function canvasTree(plan: CanvasPlan, backgroundImage: ImageBytes | undefined, card: El): El {
  const scaled = plan.scale < 1 && plan.cardHeight !== null;
  return box(
    {
      position: 'relative',
      width: plan.width,
      ...(plan.height === null ? { padding: plan.padding } : { height: plan.height }),
      alignItems: 'center',
      justifyContent: 'center',
      overflow: 'hidden',
      ...fillOf(plan),
    },
    coverImage(backgroundImage),
    scaled
      ? box(
          {
            position: 'relative',
            flexShrink: 0,
            width: plan.cardWidth * plan.scale,
            height: plan.cardHeight! * plan.scale,
          },
          box(
            {
              position: 'absolute',
              left: 0,
              top: 0,
              width: plan.cardWidth,
              transform: `scale(${plan.scale})`,
              transformOrigin: 'top left',
            },
            card,
          ),
        )
      : box({ position: 'relative', flexShrink: 0 }, card),
  );
}

/** The container alone, `height` CSS px tall: what a raster card is laid on (container-png.ts). */
export function backgroundTree(plan: CanvasPlan, height: number, backgroundImage: ImageBytes | undefined): El {
  return box(
    { position: 'relative', width: plan.width, height, overflow: 'hidden', ...fillOf(plan) },
    coverImage(backgroundImage),
  );
}
