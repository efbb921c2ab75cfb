import { test } from 'node:test';
import { corpusPost } from './corpus.ts';
import { assertHtmlMatchesPng, useChromium } from './html-match.ts';

// Right-to-left runs wrapping inside left-to-right paragraphs: the engine glued two words of the
// run and moved the line's last space in front of it (rtl-run-breaks.ts). Each text wraps inside
// a run at one of the widths, after a word, a comma, a parenthesis, a number or an emoji.
useChromium();

const TEXTS = {
  'arabic-after-latin': 'Google هذا وصف طويل جدا للصفحة',
  'arabic-entities-emoji':
    'Read @user مرحبا بكم في موقعنا، هذا نص تجريبي طويل جدا 😀 يحتوي على رموز تعبيرية 🎉 وأرقام ١٢٣ و 456 #وسم_عربي https://example.com/path النهاية!',
  'arabic-commas-digits':
    'Note: أولا، ثانيا، ثالثا، رابعا، خامسا، سادسا، سابعا، ثامنا، تاسعا، عاشرا، والأخير: (النهاية) ١٢٪ 34% done',
  'hebrew-punctuation': 'Check this out: שלום עולם, מה שלומכם היום? זה טקסט ארוך בעברית עם 15% הנחה (בלבד) ועוד מילים.',
  // Emoji ending a line inside a run, and emoji between a right-to-left word and Latin.
  'arabic-emoji-between-words':
    'Emoji heavy: الحب 💕 والسلام 🕊️ والفرح 🎉 والأمل 🌈 والصبر 🙏 والعمل 💪 والنجاح 🏆 are my 2026 goals.',
  'arabic-emoji-before-latin':
    'Attached emoji: صباح الخير☕️ يا أحبابي🌞 أتمنى لكم يوماً سعيداً😊 مليئاً بالحب💗 والنجاح🎯 good morning!',
  // Random mixes: a break between Arabic digits after a Han letter, and a line ending in a flag.
  'mix-digits-after-han':
    'Note: ١٢٣هذا « الكتاب works ١٢٣ الكتاب هذا ( هذا עולם١٢٣ ( ? ?עולם«الكتابworks 𰻞 ١٢٣ ? % ١٢٣works 𰻞 « 🇪🇬«עולם works🇪🇬 ١٢٣ هذاעולם (',
  'mix-flag-ends-line': 'Note: ? الكتاب( works« «هذا works🇪🇬 « « الكتاب الكتاب 🇪🇬هذاهذا % ١٢٣?١٢٣% هذاworks هذا',
  // Ideographic spaces between the words of the run, as after a Japanese sentence.
  'arabic-ideographic-spaces':
    'Note: هذا\u3000وصف\u3000طويل\u3000جدا\u3000للصفحة\u3000الرئيسية\u3000للموقع\u3000الرسمي\u3000باللغة done',
  'hebrew-currency': 'Sale: מבצע ב-15% הנחה, רק היום! מחיר: ₪99 (במקום ₪120). הזמינו עכשיו: www.example.co.il ותיהנו.',
};

for (const [label, text] of Object.entries(TEXTS)) {
  for (const width of [300, 340, 420]) {
    test(`a right-to-left run wraps in a left-to-right paragraph as in Chromium: ${label} at ${width} px`, async (t) => {
      await assertHtmlMatchesPng(t, `${label}-${width}`, corpusPost('emoji', { text }), new Map(), 'light', { width });
    });
  }
}

// The mirror case: a right-to-left paragraph whose left-to-right run holds an emoji. Where a
// line ends inside such a run, the engine drew the space before the emoji after the run.
for (const [label, text] of [
  ['emoji-ends-line', 'صباح الخير ☀️ يا جماعة 🌹 اليوم جميل 😍 Good morning 👋 everyone!'],
  ['emoji-inside-line', 'جميل Good 👋 morning 123 everyone! شكرا لكم 🙏 thank you all so much'],
]) {
  test(`a left-to-right run with an emoji wraps in a right-to-left paragraph as in Chromium: ${label}`, async (t) => {
    const post = corpusPost('arabic', { text, poll: undefined });
    await assertHtmlMatchesPng(t, `ltr-run-in-rtl-${label}`, post, new Map(), 'light', { width: 300 });
  });
}

for (const [label, description] of [
  ['words', 'Official — هذا وصف طويل جدا للصفحة الرئيسية للموقع الرسمي باللغة العربية مع تفاصيل أخرى كثيرة'],
  ['one-word', 'Official site of the مكتبة library, with opening hours, events, collections and much more to read'],
]) {
  test(`a left-to-right link card description wraps its Arabic ${label} as in Chromium`, async (t) => {
    const post = {
      ...corpusPost('emoji', { text: 'Official site https://example.com/ar' }),
      card: {
        url: 'https://example.com/ar',
        domain: 'example.com',
        title: 'Example',
        description,
        large: false,
      },
    };
    for (const width of [300, 550]) {
      // Glued words in 15 px text are a smaller share of a square than in the post's text.
      await assertHtmlMatchesPng(
        t,
        `link-card-arabic-${label}-${width}`,
        post,
        new Map(),
        'dark',
        { width },
        undefined,
        0.1,
      );
    }
  });
}

// An emoji between a word of one direction and text of the other: the engine put it inside the
// run before it, a browser between the two (image-levels.ts).
test('an emoji between Arabic and Latin sits between them, as in Chromium, in both directions', async (t) => {
  for (const [label, text] of [
    ['ltr', 'Short: يوماً سعيداً والنجاح🎯 good morning!'],
    ['rtl', 'هذا hello world💕, عالم جميل'],
    ['after-zwsp', 'Attached: صباح الخير\u200b☕️ good morning!'],
  ]) {
    await assertHtmlMatchesPng(t, `emoji-between-${label}`, corpusPost('emoji', { text }), new Map(), 'light', {
      width: 480,
    });
  }
});

// An emoji inside a word of a joining script: a browser shapes each side as a word's end and
// start; the engine shaped through the image, so the letter before it kept its joining form.
test('letters beside an emoji take their end and start forms, as in Chromium: Arabic, Syriac, names', async (t) => {
  for (const [label, text, name] of [
    ['arabic', 'السعوديه🇸🇦بلادي محبه❤️كبيرة بيت🇪🇬بيت😀بيتٌ💚بيت', undefined],
    ['syriac', 'ܫܠܡܐ😀ܫܠܡܐ', undefined],
    ['name', 'Hello', 'محمد🌙العربي'],
  ] as const) {
    await assertHtmlMatchesPng(t, `emoji-in-word-${label}`, corpusPost('emoji', { text, name }), new Map(), 'light', {
      width: 480,
    });
  }
});
