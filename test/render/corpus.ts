// Posts in many scripts, written as FxTwitter API bodies (the upstream shape) and normalized as
// the service normalizes them. Real-world names and texts, not shaped around the renderer: each
// one carries what the issue saw break (dots of Arabic letters, punctuation beside RTL words,
// scripts without spaces, decomposed marks, math alphanumerics in names, emoji sequences).
import { normalizeFxTwitter } from '../../src/sources/fxtwitter/normalize.ts';
import type { Post } from '../../src/sources/post.ts';

interface Entry {
  name: string;
  handle: string;
  text: string;
  lang: string;
  poll?: Array<[string, number]>;
}

export const CORPUS: Record<string, Entry> = {
  arabic: {
    name: 'مكتبة الإسكندرية',
    handle: 'BibAlex',
    lang: 'ar',
    text: 'مرحبا! افتتاح معرض جديد في المكتبة يوم الخميس، من الساعة 10:00 إلى 18:00. هل ستحضر؟\nالدخول مجاني للطلاب «بالبطاقة الجامعية». تفاصيل: https://www.bibalex.org/ar #مكتبة_الإسكندرية',
    poll: [
      ['نعم، بالتأكيد', 412],
      ['ربما في العطلة', 129],
      ['العربية في كل مكان', 37],
    ],
  },
  persian: {
    name: 'کتابخانه ملی ایران',
    handle: 'nlai_ir',
    lang: 'fa',
    text: 'سلام دوستان! ساعت کاری کتابخانه در روزهای تعطیل تغییر کرده است: شنبه تا چهارشنبه ۸ تا ۱۶. سؤالی دارید؟ با ما در تماس باشید.',
  },
  urdu: {
    name: 'اردو ادب',
    handle: 'urdu_adab',
    lang: 'ur',
    text: 'غالب کا ایک شعر: ”ہزاروں خواہشیں ایسی کہ ہر خواہش پہ دم نکلے“۔ آپ کا پسندیدہ شاعر کون ہے؟',
  },
  hebrew: {
    name: 'רשות שדות התעופה',
    handle: 'iaa_airports',
    lang: 'iw',
    text: 'שימו לב: הנחה של ב-15% על חניה בנתב"ג (טרמינל 3) עד סוף החודש! המחיר: 45 ₪ ליום. שאלות? @iaa_airports',
  },
  indic: {
    name: 'இந்திய தபால் துறை',
    handle: 'IndiaPostOffice',
    lang: 'ta',
    text: 'வணக்கம்! தமிழ் மொழி\nস্বাগতম, বাংলা ভাষা\nతెలుగు భాషకు స్వాగతం\nગુજરાતી ભાષા\nਪੰਜਾਬੀ ਭਾਸ਼ਾ\nമലയാളം ഭാഷ\nಕನ್ನಡ ಭಾಷೆ\nසිංහල භාෂාව\nहिन्दी में नमस्ते',
  },
  // Ra- and ba-phala in nearly every word: one misshaped conjunct kind shows across the card. And
  // conjuncts of ন্ (ন্ধ ন্ম ন্ন), which each version of the font draws right in only one shaper.
  bengali: {
    name: 'প্রথম আলো ক্রীড়া',
    handle: 'ProthomAlo',
    lang: 'bn',
    text: 'প্রধানমন্ত্রী আজ বিশ্ববিদ্যালয়ের গ্রন্থাগার উদ্বোধন করেছেন। ক্রিকেট দলের প্রস্তুতি ও রাষ্ট্রীয় সফর নিয়ে দ্বিতীয় দিনের আলোচনা। শুভ জন্মদিন বন্ধু, অন্ধকার সন্ধ্যায় উন্নয়নের গল্প।\nঅসমীয়া: প্ৰথম শ্ৰেণীৰ ছাত্ৰ-ছাত্ৰীৰ কাৰ্যসূচী।',
  },
  'southeast-asian': {
    name: 'ราชบัณฑิตยสภา',
    handle: 'royalsociety_th',
    lang: 'th',
    text: 'พจนานุกรมฉบับราชบัณฑิตยสถานเป็นพจนานุกรมภาษาไทยที่ใช้อ้างอิงอย่างเป็นทางการในการสะกดคำทั่วประเทศไทย\nព្រះរាជាណាចក្រកម្ពុជា ភាសាខ្មែរ\nພາສາລາວ ສະບາຍດີ\nမြန်မာဘာသာစကား မင်္ဂလာပါ',
  },
  caucasus: {
    name: 'ეროვნული ბიბლიოთეკა',
    handle: 'nplg_ge',
    lang: 'ka',
    text: 'გამარჯობა! ქართული ანბანი\nԲարեւ Ձեզ, հայերեն լեզու\nሰላም ለዓለም፣ አማርኛ ቋንቋ',
  },
  odia: {
    name: 'ଓଡ଼ିଶା ସରକାର',
    handle: 'CMO_Odisha',
    lang: 'or',
    text: 'ନମସ୍କାର! ଆଜି ଭୁବନେଶ୍ୱରରେ ରଥଯାତ୍ରା ପାଇଁ ପ୍ରସ୍ତୁତି ଚାଲିଛି। ଅଧିକ ସୂଚନା: https://odisha.gov.in\nབཀྲ་ཤིས་བདེ་ལེགས། བོད་ཀྱི་སྐད་ཡིག\nᠮᠣᠩᠭᠣᠯ ᠤᠯᠤᠰ\u202fᠤᠨ ᠪᠢᠴᠢᠭ᠃ ᠬᠣᠲᠠ\u202fᠳᠤ\nᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ — ᐃᓄᒃᑎᑐᑦ ᐅᖃᐅᓯᖅ\nⴰⵣⵓⵍ ⵜⴰⵎⴰⵣⵉⵖⵜ · ᱥᱟᱱᱛᱟᱲᱤ · ꯃꯤꯇꯩ ꯃꯌꯦꯛ · ꦧꦱꦗꦮ',
  },
  dhivehi: {
    name: 'ރައީސުލްޖުމްހޫރިއްޔާގެ އޮފީސް',
    handle: 'presidencymv',
    lang: 'dv',
    text: 'މިއަދު މާލޭގައި ބޭއްވި ޖަލްސާގައި 250 ބައިވެރިން ބައިވެރިވި. ތަފްސީލު: https://presidency.gov.mv\nܫܠܡܐ ܥܠܡܐ! ܠܫܢܐ ܣܘܪܝܝܐ\nߒߞߏ ߞߊ߲ ߦߋ߫ ߊ߬ ߘߌ߫\n𞤀𞤣𞤤𞤢𞤥 𞤆𞤵𞤤𞤢𞤪',
  },
  omniglot: {
    name: 'Omniglot ᜊᜌ᜔ᜊᜌᜒᜈ᜔ ᚱᚢᚾᚨ',
    handle: 'omniglot',
    lang: 'en',
    text: 'Hello in scripts of the Philippines, Indonesia and beyond: ᜋᜑᜎ᜔ ᜃᜒᜆ · ᮞᮙ᮪ᮕᮥᮛᮞᮥᮔ᮪ · ᬒᬁᬲ᭄ᬯᬲ᭄ᬢ᭄ᬬᬲ᭄ᬢᬸ · ᨅᨔ ᨕᨘᨁᨗ · ꨌꩌ\nⲧⲙⲛ̄ⲧⲣⲙ̄ⲛ̄ⲕⲏⲙⲉ · 𐌲𐌿𐍄𐌹𐍃𐌺 · ᚛ᚑᚌᚐᚋ᚜ · 𐓏𐓘𐓻𐓘𐓻𐓟 · ꕙꔤ · ꠍꠤꠟꠐꠤ · ᤕᤠᤰᤌᤢᤱ · 𑐣𑐾𑐥𑐵𑐮\nᥖᥭᥰ ᥘᥫᥴ · ᦑᦟᦹᧉ · ꪼꪕ ꪻꪾ · ꤊꤢ꤬ꤛꤢ꤭ · 𖼀𖼁𖼂\n𐴌𐴟𐴇𐴥𐴝𐴚𐴒𐴙𐴝 ࠔࠌࠓࠓࠍ',
  },
  'minority-scripts': {
    name: 'ꆈꌠꁱꂷ ꓡꓲ-ꓢꓴ',
    handle: 'scriptsofasia',
    lang: 'en',
    text: 'Scripts from the 4.x font packages: Nuosu ꆈꌠꉙ ꆈꌠꁱꂷ · Lisu ꓡꓲ-ꓢꓴ ꓥꓳꓽ\nLanna ᨲᩫ᩠ᩅᨾᩮᩥᩬᨦ ᩋᨠ᩠ᨡᩁᨵᨾ᩠ᨾ · Lepcha ᰛᰩᰵ ᰛᰦᰵ\nSaurashtra ꢱꣃꢬꢵꢰ꣄ꢜ꣄ꢬ · Bamum ꚳꚶꛉ ꛊꚧ',
  },
  'chinese-traditional': {
    name: '國立故宮博物院',
    handle: 'npmmuseum',
    lang: 'zh',
    text: '歡迎來到故宮博物院！這個週末我們會舉辦特別展覽，請大家來參觀。門票：全票 350 元，學生票 150 元。\n罕用字：齉 𠀋 𡈽 𠮷 杗 詨 㓥 𠹌 𰻞𰻞麵',
  },
  'japanese-korean': {
    name: '東京国立博物館',
    handle: 'TNM_PR',
    lang: 'ja',
    text: '東京の美術館で新しい展示が始まりました。ぜひお越しください！\n서울에서 만나요! 한국어 문장도 잘 보입니다.',
  },
  // Small kana and ー, where a browser breaks lines and the engine by default does not; half-width
  // katakana with voiced marks, which the font packages keep in other files than the kana.
  japanese: {
    name: 'ﾊﾟｿｺﾝ ｼｮｯﾌﾟ 秋葉原店',
    handle: 'pasokon_shop',
    lang: 'ja',
    text: '新しいノートパソコンを買いました！キーボードがちょっと小さいけど、ディスプレイはとてもきれいです。ｹﾞｰﾑもｻｸｻｸ動きます。週末はショッピングモールでコーヒーを飲みながら、プログラミングの勉強をしよう。iPhoneのバックアップも忘れずに。',
  },
  'names-and-marks': {
    name: '𝐌𝐚𝐭𝐡 𝘕𝘢𝘮𝘦 𝓢𝓬𝓻𝓲𝓹𝓽 ⅓',
    handle: 'mathnames',
    lang: 'pl',
    // Decomposed, as text pasted from macOS arrives.
    // Marks with no precomposed letter (IPA, Yoruba, stacked marks) and super- and subscripts.
    text: 'Zażółć gęślą jaźń — cześć! Tiếng Việt: ơ ư ă đ. Română: ș ț ă â î.\n☺︎ © ™ ↔ → ★ ½ ⅓\nIPA [ŋ̊ ʊ̯ t͡s å̊] · Yorùbá: ẹ̀ ọ́ · CO₂ x²⁺ⁿ 20 ℃ · Z̷̢a̴͓l̶̡g̸̛o͢'.normalize(
      'NFD',
    ),
  },
  emoji: {
    name: 'Emoji 16 🐦‍🔥 🍋‍🟩',
    handle: 'emojipedia',
    lang: 'en',
    text: 'New in 15.1 and 16: 🐦‍🔥🍋‍🟩🙂‍↔️⛓️‍💥🫩 and skin tones 👍🏿✌🏼👩🏽‍💻🧑🏾‍🤝‍🧑🏻 🏻\nWeather → 🌎🌍🗺⭐☔⚡⚽⛄ ★ flags 🇺🇦🇯🇵🏴󠁧󠁢󠁳󠁣󠁴󠁿 keycaps 1️⃣#️⃣',
  },
};

/** A corpus entry as FxTwitter would send it, under post id `id`. */
export function corpusBody(key: string, overrides: Partial<Entry> = {}, id = '1800000000000000001') {
  const e = { ...CORPUS[key], ...overrides };
  return {
    code: 200,
    message: 'OK',
    tweet: {
      id,
      url: `https://x.com/${e.handle}/status/${id}`,
      text: e.text,
      author: { id: '1', name: e.name, screen_name: e.handle, verification: { verified: false } },
      replies: 12,
      retweets: 345,
      likes: 6789,
      views: 123456,
      created_at: 'Thu Apr 02 10:00:00 +0000 2026',
      created_timestamp: 1775124000,
      lang: e.lang,
      is_note_tweet: false,
      replying_to: null,
      replying_to_status: null,
      ...(e.poll
        ? {
            poll: {
              choices: e.poll.map(([label, count]) => ({ label, count })),
              total_votes: e.poll.reduce((s, [, n]) => s + n, 0),
              time_left_en: 'Final results',
            },
          }
        : {}),
    },
  };
}

/** A corpus entry as the service would have it: FxTwitter body → normalize. */
export function corpusPost(key: string, overrides: Partial<Entry> = {}): Post {
  const r = normalizeFxTwitter(200, corpusBody(key, overrides));
  if (r.kind !== 'found') throw new Error(`${key}: ${r.kind}`);
  return r.post;
}

/** `post` quoting `quoted`, whose author is verified. */
function quoting(post: Post, quoted: Post): Post {
  return { ...post, quoted: { ...quoted, author: { ...quoted.author, verification: 'blue' } } };
}

/** Posts that push at the card's edges: unbroken words and links in both directions, huge names. */
export function edgePosts(): Record<string, Post> {
  const longUrl = `https://example.com/${'path-segment/'.repeat(12)}end`;
  return {
    'long-words-ltr': corpusPost('emoji', {
      text: `Pneumonoultramicroscopicsilicovolcanoconiosis${'x'.repeat(120)} and a link ${longUrl}`,
    }),
    'long-words-rtl': corpusPost('arabic', {
      text: `كلمة طويلة جدا: ${'الاستقلالية'.repeat(12)} ورابط ${longUrl} ומילה ארוכה ${'אבגדהוזחטיכלמנסעפצקרשת'.repeat(4)}`,
      poll: undefined,
    }),
    'wide-name': corpusPost('emoji', {
      name: `${'Ｗ'.repeat(50)}`,
      // The longest handle a source may send (20 characters; X's own are at most 15).
      handle: 'a_handle_of_max_len_',
      text: 'A display name of fifty full-width letters.',
    }),
    'emoji-name': corpusPost('emoji', {
      name: `Dana Doe ${'🌸'.repeat(25)} end`,
      text: 'A name that is mostly emoji ends in an ellipsis, its emoji kept.',
    }),
    'emoji-poll': corpusPost('arabic', {
      text: 'Which flowers?',
      poll: [
        [`Cherry blossoms ${'🌸'.repeat(40)}`, 30],
        ['زهور الربيع 🌷🌷🌷', 12],
      ],
    }),
    // Five counters too wide together for a narrow card.
    'viral-counts': {
      ...corpusPost('emoji', { text: 'This one blew up overnight. Thank you all!' }),
      counts: { replies: 18_200, reposts: 123_500, likes: 1_200_000, bookmarks: 45_700, views: 98_800_000 },
    },
    // The quote header: name, badge and "@handle · date" share one line; each is cut, none hidden.
    'quote-emoji-name': quoting(corpusPost('emoji', { text: 'Quoting an author whose name is mostly emoji.' }), {
      ...corpusPost('emoji', { name: `Dana Doe ${'🌸'.repeat(25)} end`, handle: 'a_handle_of_max_len_' }),
      text: 'The quoted text.',
    }),
    'quote-rtl-name': quoting(corpusPost('hebrew', { text: 'ציטוט של חשבון עם שם ארוך מאוד.' }), {
      ...corpusPost('arabic', { name: `مكتبة الإسكندرية ${'الكبرى والعربية '.repeat(3)}`, poll: undefined }),
      text: 'نص مقتبس قصير.',
    }),
    // A link card's description is two lines at most, however narrow the card, in either direction.
    'link-card-description': {
      ...corpusPost('emoji', { text: 'Read more https://example.com/rates' }),
      card: {
        url: 'https://example.com/rates',
        domain: 'example.com',
        title: 'Central bank holds rates steady',
        description: `The central bank kept its policy unchanged on Tuesday, as analysts had expected. ${'More detail follows. '.repeat(6)}`,
        large: false,
      },
    },
    'link-card-rtl-description': {
      ...corpusPost('arabic', { text: 'اقرأ المزيد https://example.com/ar', poll: undefined }),
      card: {
        url: 'https://example.com/ar',
        domain: 'example.com',
        title: 'البنك المركزي يثبت أسعار الفائدة دون تغيير',
        description: `أبقى البنك المركزي على سياسته النقدية دون تغيير يوم الثلاثاء كما كان متوقعاً من قبل المحللين. ${'تفاصيل أخرى. '.repeat(8)}`,
        large: false,
      },
    },
    'long-rtl-name': corpusPost('arabic', {
      name: `مكتبة الإسكندرية ${'الكبرى والعربية '.repeat(6)}🐦‍🔥`,
      text: 'اسم طويل جدا في رأس البطاقة.',
      poll: undefined,
    }),
  };
}
