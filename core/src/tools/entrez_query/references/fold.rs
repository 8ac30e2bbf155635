//! Letters folded as a researcher reads them: "Müller", "Mu\u{308}ller" (a combining
//! diaeresis, as NFD writes it) and "Muller" (as many reference managers export it) are one
//! name; "Ångström" is "angstrom", "Łukasz" "lukasz", "Straße" "strasse".
//!
//! No Unicode tables are carried (the core compiles to wasm, counted against the Worker's
//! bundle): combining marks (U+0300–U+036F) are dropped, and the precomposed Latin letters
//! PubMed's names and titles use are mapped to their base letters.

/// Whether `c` is a combining diacritical mark (NFD's accents).
pub fn is_mark(c: char) -> bool {
    ('\u{300}'..='\u{36f}').contains(&c)
}

/// `s` in lower case, accents folded, combining marks dropped; other characters kept.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars().flat_map(char::to_lowercase) {
        if is_mark(c) {
            continue;
        }
        match base(c) {
            Some(b) => out.push_str(b),
            None => out.push(c),
        }
    }
    out
}

/// Letters and digits only, lower case, accents folded ([`fold`]): "Garcia-Tabar",
/// "García Tabar" and "Garci\u{301}a Tabar" meet.
pub fn squeeze(s: &str) -> String {
    fold(s).chars().filter(|c| c.is_alphanumeric()).collect()
}

/// The base letters of a lower-case accented Latin letter.
fn base(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' | 'ǎ' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'ď' | 'đ' | 'ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'ĥ' | 'ħ' => "h",
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' | 'ǐ' => "i",
        'ĵ' => "j",
        'ķ' => "k",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'ñ' | 'ń' | 'ņ' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' | 'ǒ' => "o",
        'œ' => "oe",
        'ŕ' | 'ŗ' | 'ř' => "r",
        'ś' | 'ŝ' | 'ş' | 'š' | 'ș' => "s",
        'ß' => "ss",
        'ţ' | 'ť' | 'ŧ' | 'ț' => "t",
        'þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' | 'ǔ' => "u",
        'ŵ' => "w",
        'ý' | 'ÿ' | 'ŷ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precomposed_combining_and_dropped_accents_fold_alike() {
        // "Müller" (U+00FC), "Mu\u{308}ller" (u + combining diaeresis), "Muller".
        assert_eq!(fold("Müller"), "muller");
        assert_eq!(fold("Mu\u{308}ller"), "muller");
        assert_eq!(fold("Muller"), "muller");
        assert_eq!(fold("Ångström"), "angstrom");
        assert_eq!(fold("A\u{30a}ngstro\u{308}m"), "angstrom");
        assert_eq!(fold("Łukasz Dvořák"), "lukasz dvorak");
        assert_eq!(fold("Straße"), "strasse");
        assert_eq!(fold("naïve T-cell"), "naive t-cell");
    }
}
