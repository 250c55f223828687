/** Closed word lists the segmenter and the finding builder share. */
const set = (s: string): ReadonlySet<string> => new Set(s.trim().split(/\s+/));

/** Words stripped from the ends of a finding: subjects, auxiliaries, reporting verbs, articles. */
export const LEADING_FILLER = set(`
  i i'm im i've ive i'd id me we he she they he's she's it it's its pt pt's patient patient's the a an my his her their our
  some any also and or with w/ plus still just really am is are was were be been being have has had having 've do does did
  feel feels feeling felt get gets getting got keep keeps keeping kept notice noticed noticing experience experienced
  experiencing report reports reported reporting complain complains complained complaining of c/o endorses endorsing endorsed
  admits admitted to presents presenting presented developed develop develops started starting start starts began begin begins
  currently +pos suffer suffers suffering from there there's theres bit lot lots seem seems seemed maternal paternal
  which that who if about around then this these those now takes take taking constantly kind sort quite pretty very extremely again recently lately today onset noted notes
  + - : , / & ( ) ?`);
export const TRAILING_FILLER = set(`
  anywhere all either too well lately recently now today though whatsoever much really and or with w/ of the a an to
  does do did is are was were has have had am it been being + - : , / & ( ? either at as started began starting beginning about around then pt presents presenting after for within lasting who`);

export const SUBJECTS = set(`i i'm im i've ive i'd id he she they we he's she's it it's my his her their patient pt pt's patient's`);

/** First words of a modifier clause that describes the preceding finding ("worse when breathing in"). */
export const MODIFIER_START = set(`
  worse worsens worsened worsening better improves improved improving relieved relief aggravated exacerbated provoked triggered
  induced brought radiating radiates radiate radiation radiated spreading spreads spread going goes moves moving travels traveling
  travelling shooting when whenever while on at after before during especially mostly mainly particularly worst lasting lasts
  lasted described like unrelieved started began starts comes came localized located since non-radiating nonradiating`);
/** Describing words that make a modifier clause only on their own (", sharp," vs ", sharp chest pain"). */
export const MODIFIER_ADJECTIVES = set(`
  sharp dull burning crushing stabbing pressure pressure-like squeezing tight aching achy throbbing pleuritic positional
  exertional non-exertional nonexertional colicky cramping cramp-like tearing ripping sudden suddenly gradual gradually severe
  mild moderate diffuse non-pleuritic nonpleuritic episodic occasional periodic continuous persistent ongoing constant
  intermittent intermittently very quite onset in nature`);
/** Words skipped when looking for the first word of a modifier clause. */
export const MODIFIER_SKIP = set(`and also it it's its is are was gets got which that the but`);

/** Describing words: "sharp and stabbing pain", "red and swollen" stay one finding. */
export const ADJECTIVES = set(`
  sharp dull burning crushing stabbing squeezing tight aching achy throbbing constant intermittent severe mild moderate red
  swollen itchy black tarry dry warm hot cold tender painful sore stiff weak numb pale yellow pink dark bloody watery thick
  green frequent sudden gradual worsening new recurrent persistent productive loose heavy light mild`);

/** Body sites and laterality: "pain in the left arm and jaw" keeps "jaw" with the pain. */
export const BODY = set(`
  arm arms jaw neck back shoulder shoulders leg legs chest head face eye eyes ear ears throat abdomen belly stomach hand hands
  foot feet knee knees hip hips ankle ankles wrist wrists elbow elbows finger fingers toe toes side sides flank flanks groin
  thigh thighs calf calves mouth tongue lips lip nose teeth gums skin scalp forehead temple temples cheek cheeks breast breasts
  buttock buttocks spine tailbone pelvis armpit axilla left right l r lt rt both bilateral upper lower my the his her in to of
  trunk torso body`);

/**
 * What a patient does that brings a symptom on ("worse when I cough, sneeze or laugh"): a list of
 * these after a modifier's last action continues the modifier, past its commas (segmentsOf).
 */
export const TRIGGER_ACTIONS = set(`
  cough coughs coughing coughed sneeze sneezes sneezing sneezed laugh laughs laughing laughed strain strains straining strained
  lift lifts lifting bend bends bending stoop stooping move moves moving movement movements breathe breathes breathing breath
  walk walks walking eat eats eating swallow swallows swallowing twist twists twisting turn turns turning exercise exercising
  exertion climb climbing stairs run running talk talking yawn yawning push pushing pull pulling sit sitting stand standing
  lie lying lay laying reach reaching carry carrying deep down up forward over`);

/** Pairs that are one expression, not two findings: "on and off", "comes and goes". */
export const FIXED_PAIRS = set(`on|off off|on comes|goes come|go coming|going back|forth in|out up|down hot|cold now|then day|night pins|needles
  on/off`);

/** "worse with exertion", "difficulty with swallowing": "with" after these is no list joiner. */
export const WITH_KEEP = set(`
  worse better improves improved improving relieved aggravated exacerbated worsens worsened helped helps treated managed
  contact diagnosed comes goes on away settles settled subsides subsided disappears stops eased eases resolves resolved started begins problems problem trouble difficulty issues associated
  along together consistent compatible concurrent up fine okay ok improvement change relief difference help struggled struggle struggling struggles deal dealing
  hurts hurt hurting winces wince wincing catches`);

/** Temperature words: an atom of only these and a temperature value is the fever finding itself. */
export const TEMPERATURE_WORDS = set(`
  temp temperature t tmax febrile fever fevers feverish pyrexia pyrexial high low grade low-grade of to was is at up as around
  about reaching spiking a with has had measured oral rectal max maximum degrees deg running ran spiked
  temps temperatures overnight last night nights evening evenings yesterday today tonight morning this in the home recorded checked peaked peak`);

/** A list item with these words reports a normal or positive state ("BMs normal", "tolerating PO"): it ends a negation list. */
export const NOT_BARE = set(`normal normally fine ok okay tolerating tolerated tolerates positive present intact clear stable utd good well
  unremarkable appropriate passing eating drinking voiding urinating ambulating making moving`);
/** Acuity words: "h/o CHF, acute severe dyspnea" - the list of past problems has ended. */
export const ACUTE = set(`acute sudden new severe worsening progressive increasing ongoing current currently today now recent abrupt
  tonight`);
/** Findings made only of these say nothing ("up", "this season", "last Tuesday"). */
export const EMPTY_WORDS = set(`up down out off on in it that this there here so then too also well yes ok okay fine same thing things like
  stuff season year yr week month morning night evening afternoon today yesterday tonight am pm time times last past next
  monday tuesday wednesday thursday friday saturday sunday weekend day days lasted lasts lasting peak peaks peaking
  each episode nope nah yeah yep before ros hpi pmh exam advised instructed told should will would please call us return
  patient pt takes take taking`);

/** Words before a clause's subject: "and now I have a fever" starts a new clause. */
const BEFORE_SUBJECT = set(`now then also so today currently since recently just still yet lately tonight`);

/** Does this run of words open a clause with its own subject ("I ...", "my throat ...", "she ...")? */
export function opensWithSubject(words: readonly { norm: string }[]): boolean {
  const first = words.find((w) => !BEFORE_SUBJECT.has(w.norm));
  return first !== undefined && SUBJECTS.has(first.norm);
}
