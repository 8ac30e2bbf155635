//! The comparison's rules, each on a hand-built record.

use super::*;

#[test]
fn titles_alike_in_letters_are_the_same_only_with_the_same_words() {
    let t = "Effect of metformin on the prevention of type 2 diabetes in adults";
    assert!(same_words(
        t,
        "Effect of metformin on prevention of type 2 diabetes in adults."
    ));
    assert!(same_words(
        t,
        "Effect of metformn on the prevention of type 2 diabetes in adults"
    ));
    assert!(!same_words(
        t,
        "Effect of metformin on the prevention of type 1 diabetes in adults"
    ));
    assert!(!same_words(
        t,
        "Effect of metformin on the prevention of type 2 diabetes in children"
    ));
    assert!(!same_words(
        t,
        "No effect of metformin on the prevention of type 2 diabetes in adults"
    ));
    assert!(same_words("Randomised trial", "Randomized trial"));
}

#[test]
fn a_plural_is_another_journal_and_usa_is_u_s_a() {
    assert!(!journal_agrees("Cancer", &["Cancers (Basel)"]));
    assert!(!journal_agrees("Cell", &["Cells"]));
    assert!(journal_agrees(
        "Proc Natl Acad Sci USA",
        &["Proc Natl Acad Sci U S A"]
    ));
    assert!(journal_agrees(
        "Journal of Crohn's and Colitis",
        &["J Crohns Colitis"]
    ));
    assert!(journal_agrees(
        "Occup Environ Med",
        &["Occupational and Environmental Medicine"]
    ));
}

fn wakefield() -> Candidate {
    Candidate {
        pmid: "9500320".into(),
        title: "Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children".into(),
        authors: vec!["Wakefield AJ".into(), "Murch SH".into()],
        groups: vec![],
        source: "Lancet".into(),
        journal: "Lancet (London, England)".into(),
        year: Some(1998),
        epub_year: None,
        volume: "351".into(),
        issue: "9103".into(),
        pages: "637-41".into(),
        doi: None,
        pmcid: None,
        integrity: Integrity::default(),
    }
}

#[test]
fn a_faithful_reference_agrees_on_everything_it_says() {
    let r = Reference::from_text("Wakefield AJ, Murch SH. Ileal lymphoid nodular hyperplasia, non-specific colitis and pervasive developmental disorder in children. Lancet. 1998;351(9103):637-41.");
    let cmp = compare(&r, &wakefield());
    assert_eq!(cmp.disagreed, Vec::<&str>::new(), "{cmp:?}");
    assert_eq!(
        cmp.agreed,
        [
            "title",
            "year",
            "first_author",
            "journal",
            "volume",
            "issue",
            "first_page"
        ]
    );
    assert!(cmp.title_similarity > 0.9);
}

#[test]
fn a_made_up_reference_on_a_real_pmid_disagrees() {
    let r = Reference::read(
        0,
        &serde_json::json!({"pmid": "9500320", "title": "Measles vaccination and autism spectrum disorder in a Danish cohort", "authors": ["Smith J"], "year": 2019}),
    );
    let cmp = compare(&r, &wakefield());
    assert_eq!(cmp.disagreed, ["title", "year", "first_author"]);
    assert!(
        cmp.title_similarity < LIKE_TITLE,
        "{}",
        cmp.title_similarity
    );
}

/// A record with accented names and title, cited with the accents precomposed, as
/// combining marks (NFD), or dropped: the same paper.
#[test]
fn accents_precomposed_combining_or_dropped_compare_equal() {
    let mut w = wakefield();
    w.authors = vec!["Dvořák Ł".into(), "Müller K".into()];
    w.title = "Ångström-scale imaging of naïve T cells in Sjögren's syndrome".into();
    w.journal = "Revista Española de Cardiología".into();
    for (name, initial, title, journal) in [
        ("Dvořák", "Ł", "Ångström-scale imaging of naïve T cells in Sjögren's syndrome", "Rev Esp Cardiol"),
        ("Dvor\u{30c}a\u{301}k", "L", "A\u{30a}ngstro\u{308}m-scale imaging of nai\u{308}ve T cells in Sjo\u{308}gren's syndrome", "Revista Espan\u{303}ola de Cardiologi\u{301}a"),
        ("Dvorak", "L", "Angstrom-scale imaging of naive T cells in Sjogren's syndrome", "Revista Espanola de Cardiologia"),
    ] {
        let r = Reference {
            authors: vec![name.into()],
            initials: Some(initial.into()),
            title: Some(title.into()),
            journal: Some(journal.into()),
            ..Reference::default()
        };
        let cmp = compare(&r, &w);
        assert_eq!(cmp.agreed, ["title", "first_author", "journal"], "{name}: {cmp:?}");
        assert_eq!(cmp.title_similarity, 1.0, "{title}");
    }
    // Folding is not loosening: another name is still another author.
    let r = Reference {
        authors: vec!["Dvorsky".into()],
        ..Reference::default()
    };
    assert_eq!(compare(&r, &w).disagreed, ["first_author"]);
}

#[test]
fn fields_the_record_lacks_are_unchecked_not_agreed() {
    let mut w = wakefield();
    w.volume.clear();
    w.pages.clear();
    let r = Reference::from_text("Wakefield AJ, Murch SH. Ileal lymphoid nodular hyperplasia, non-specific colitis and pervasive developmental disorder in children. Lancet. 1998;351(9103):637-41.");
    let cmp = compare(&r, &w);
    assert_eq!(cmp.unchecked, ["volume", "first_page"]);
    assert!(!cmp.agreed.contains(&"volume") && !cmp.disagreed.contains(&"volume"));
}

#[test]
fn citations_read_like_a_reference_list() {
    assert_eq!(
        wakefield().citation(),
        "Wakefield AJ, et al. Lancet. 1998;351:637-41"
    );
    assert_eq!(title_similarity("A: B.", "a b"), 1.0);
}

#[test]
fn an_issue_agrees_with_a_double_issue_it_is_part_of() {
    let mut w = wakefield();
    w.issue = "3-4".into();
    let cited = |issue: &str| Reference {
        issue: Some(issue.into()),
        ..Reference::default()
    };
    assert_eq!(compare(&cited("3"), &w).agreed, ["issue"]);
    assert_eq!(compare(&cited("3-4"), &w).agreed, ["issue"]);
    assert_eq!(compare(&cited("5"), &w).disagreed, ["issue"]);
}

#[test]
fn a_year_agrees_only_when_it_is_the_print_or_the_electronic_year() {
    let mut w = wakefield();
    let cited = |year: i32| Reference {
        year: Some(year),
        ..Reference::default()
    };
    // Cause: any year within one of the record's was accepted.
    assert_eq!(compare(&cited(1999), &w).disagreed, ["year"]);
    assert_eq!(compare(&cited(1997), &w).disagreed, ["year"]);
    assert_eq!(compare(&cited(1998), &w).agreed, ["year"]);
    w.epub_year = Some(1997);
    assert_eq!(compare(&cited(1997), &w).agreed, ["year"]);
}

#[test]
fn journals_agree_with_their_abbreviations_and_authors_by_first_author() {
    assert!(journal_agrees(
        "Occupational and environmental medicine",
        &["Occup Environ Med", ""]
    ));
    assert!(journal_agrees(
        "Journal of Medical Imaging",
        &[
            "J Med Imaging (Bellingham)",
            "Journal of medical imaging (Bellingham, Wash.)"
        ]
    ));
    assert!(journal_agrees(
        "The Lancet",
        &["Lancet", "Lancet (London, England)"]
    ));
    assert!(!journal_agrees(
        "Nature",
        &["Lancet", "Lancet (London, England)"]
    ));
    assert!(!journal_agrees(
        "J Med",
        &["J Med Imaging (Bellingham)", ""]
    ));
    let r = |name: &str, initials: Option<&str>| Reference {
        authors: vec![name.into()],
        initials: initials.map(String::from),
        ..Reference::default()
    };
    assert_eq!(
        compare(&r("Wakefield", Some("AJ")), &wakefield()).agreed,
        ["first_author"]
    );
    assert_eq!(
        compare(&r("Murch", None), &wakefield()).disagreed,
        ["first_author"],
        "the second author is not the first"
    );
    assert_eq!(
        compare(&r("Wakefield", Some("B")), &wakefield()).disagreed,
        ["first_author"]
    );
    assert_eq!(
        compare(&r("Wake", None), &wakefield()).disagreed,
        ["first_author"]
    );
}

/// The first author's rules (references/authors.rs) as the comparison applies them.
mod first_author {
    use super::*;
    use crate::parse::pubmed::integrity::Integrity;
    use crate::tools::entrez_query::references::input::Reference;

    fn recovery() -> Candidate {
        Candidate {
            pmid: "32678530".into(),
            title: "Dexamethasone in Hospitalized Patients with Covid-19".into(),
            authors: vec!["RECOVERY Collaborative Group".into(), "Horby P".into()],
            groups: vec!["RECOVERY Collaborative Group".into()],
            source: "N Engl J Med".into(),
            journal: "The New England journal of medicine".into(),
            year: Some(2021),
            epub_year: None,
            volume: "384".into(),
            issue: "8".into(),
            pages: "693-704".into(),
            doi: None,
            pmcid: None,
            integrity: Integrity::default(),
        }
    }

    /// PubMed lists a group first ("RECOVERY Collaborative Group; Horby P"): the group's
    /// name (any case, with or without "The") or the first person after it agree; another
    /// group or person does not.
    #[test]
    fn a_group_first_author_agrees_by_its_name_or_the_first_person_after_it() {
        let w = recovery();
        let cited = |line: &str| Reference::from_text(line);
        let tail = "Dexamethasone in hospitalized patients with Covid-19. N Engl J Med. 2021;384(8):693-704.";
        for who in [
            "RECOVERY Collaborative Group",
            "The RECOVERY Collaborative Group",
            "Recovery Collaborative Group",
            "Horby P, Lim WS",
        ] {
            let r = cited(&format!("{who}. {tail}"));
            let cmp = compare(&r, &w);
            assert!(cmp.agreed.contains(&"first_author"), "{who}: {r:?}");
            assert_eq!(cmp.disagreed, Vec::<&str>::new(), "{who}: {r:?}");
        }
        for who in ["ESC Scientific Document Group", "Lim WS, Horby PW"] {
            let r = cited(&format!("{who}. {tail}"));
            assert!(
                compare(&r, &w).disagreed.contains(&"first_author"),
                "{who}: {r:?}"
            );
        }
    }

    /// "Horby P. Dexamethasone…": a last author with one initial ends the author list; "P."
    /// was read as a page abbreviation, gluing the authors to the title.
    #[test]
    fn a_one_initial_last_author_ends_the_author_list() {
        let r = Reference::from_text("Lim WS, Horby P. Dexamethasone in hospitalized patients with Covid-19. N Engl J Med. 2021;384(8):693-704.");
        assert_eq!(r.authors, ["Lim"]);
        assert_eq!(
            r.title.as_deref(),
            Some("Dexamethasone in hospitalized patients with Covid-19")
        );
        let cmp = compare(&r, &recovery());
        assert!(cmp.agreed.contains(&"title"), "{cmp:?}");
        let r = Reference::from_text("Smith J. Trial results. Lancet. 2020;395:1-10. p. 5.");
        assert_eq!(r.title.as_deref(), Some("Trial results"));
    }
}
