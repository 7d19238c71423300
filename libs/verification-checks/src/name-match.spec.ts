import { matchBirthDate, matchName, normalizeName, transliterateCyrillic } from './name-match';

describe('normalizeName', () => {
  it.each([
    ['ERIKSSON<<ANNA<MARIA<<<<', 'ERIKSSON ANNA MARIA'],
    ['  anna-maria  eriksson ', 'ANNA MARIA ERIKSSON'],
    ['Müller', 'MULLER'],
    ['Straße', 'STRASSE'],
    // Russian, ICAO Doc 9303 Part 3 table.
    ['Щукина Юлия Фёдоровна', 'SHCHUKINA IULIIA FEDOROVNA'],
    ['Хабибуллин Ильдар', 'KHABIBULLIN ILDAR'],
    ['Цой Виктор', 'TSOI VIKTOR'],
    ['Объедков', 'OBIEEDKOV'],
    // Kazakh, with the letters outside the ICAO table.
    ['Нұрсұлтан Әбішұлы', 'NURSULTAN ABISHULY'],
    ['Қайрат Жұмағалиев', 'KAIRAT ZHUMAGALIEV'],
    ['Айгүл Өмірзақова', 'AIGUL OMIRZAKOVA'],
    // Turkish: dotless ı and dotted İ both become I.
    ['Işık Şahin', 'ISIK SAHIN'],
    ['İlkay Gündoğan', 'ILKAY GUNDOGAN'],
    ['Çağla Öztürk', 'CAGLA OZTURK'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeName(input)).toBe(expected);
  });

  it('transliterates only Cyrillic', () => {
    expect(transliterateCyrillic('Abc Жя')).toBe('Abc ZHIA');
  });
});

describe('matchName', () => {
  it('Cyrillic case name against a Latin MRZ', () => {
    expect(matchName('IVANOVA<<MARIIA', 'Иванова Мария')).toMatchObject({ matched: true, reason: 'EXACT' });
  });
  it('given name first in the case, surname first in the MRZ', () => {
    expect(matchName('ERIKSSON<<ANNA<MARIA', 'Anna Maria Eriksson')).toMatchObject({
      matched: true,
      reason: 'TOKENS_REORDERED',
    });
  });
  it('Kazakh and Turkish names', () => {
    expect(matchName('ABISHULY<<NURSULTAN', 'Нұрсұлтан Әбішұлы')).toMatchObject({ matched: true });
    expect(matchName('SAHIN<<ISIK', 'Işık Şahin')).toMatchObject({ matched: true });
  });
  it('a missing patronymic is a subset, not a match', () => {
    expect(matchName('PETROV<<IVAN', 'Петров Иван Сергеевич')).toMatchObject({
      matched: false,
      reason: 'DOCUMENT_NAME_SUBSET',
    });
    expect(matchName('PETROV<<IVAN<SERGEEVICH', 'Петров Иван')).toMatchObject({
      matched: false,
      reason: 'CASE_NAME_SUBSET',
    });
  });
  it('different people and empty input', () => {
    expect(matchName('PETROV<<IVAN', 'Ivan Petrenko')).toMatchObject({ matched: false, reason: 'MISMATCH' });
    expect(matchName('<<<<', 'Ivan')).toMatchObject({ matched: false, reason: 'EMPTY' });
  });
});

describe('matchBirthDate', () => {
  it('compares ISO dates with a reason', () => {
    expect(matchBirthDate('1974-08-12', '1974-08-12')).toMatchObject({ matched: true, reason: 'EQUAL' });
    expect(matchBirthDate('1974-08-12', '1974-12-08')).toMatchObject({ matched: false, reason: 'DIFFERENT' });
    expect(matchBirthDate(null, '1974-08-12')).toMatchObject({
      matched: false,
      reason: 'DOCUMENT_DATE_MISSING',
    });
    expect(matchBirthDate('1974-08-12', '12.08.1974')).toMatchObject({
      matched: false,
      reason: 'CASE_DATE_INVALID',
    });
  });
});
