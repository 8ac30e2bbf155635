//! The integrity reader's own tests: links and publication types in each of NLM's forms.

use super::*;

fn link(ref_type: &str, source: &str, pmid: Option<&str>) -> Correction {
    Correction {
        ref_type: ref_type.into(),
        ref_source: source.into(),
        pmid: pmid.map(String::from),
        note: None,
    }
}

#[test]
fn a_retracted_record_leads_with_its_latest_retraction() {
    let links = [
        link(
            "CommentIn",
            "Lancet. 1998 Feb 28;351(9103):611-2.",
            Some("9500313"),
        ),
        link(
            "RetractionIn",
            "Lancet. 2004 Mar 6;363(9411):750. doi: 10.1016/S0140-6736(04)15715-2.",
            Some("15016483"),
        ),
        link(
            "RetractionIn",
            "Lancet. 2010 Feb 6;375(9713):445. doi: 10.1016/S0140-6736(10)60175-4.",
            Some("20137807"),
        ),
        link(
            "ExpressionOfConcernIn",
            "Eur J Gastroenterol Hepatol. 2011 Nov;23(11):1082.",
            Some("21971344"),
        ),
    ];
    let types = [
        "Journal Article".to_string(),
        "Retracted Publication".to_string(),
    ];
    let i = Integrity::of(&links, &types);
    assert_eq!(i.flags, vec![Flag::Retracted, Flag::ExpressionOfConcern]);
    assert_eq!(i.notices.len(), 3, "the comment raises nothing");
    assert_eq!(i.notices[0].pmid.as_deref(), Some("20137807"));
    assert_eq!(i.notices[0].citation, "Lancet. 2010 Feb 6;375(9713):445");
    assert_eq!(
        i.headline().unwrap(),
        "RETRACTED: retraction notice PMID 20137807 (Lancet. 2010 Feb 6;375(9713):445); retraction notice PMID 15016483 (Lancet. 2004 Mar 6;363(9411):750) [also EXPRESSION OF CONCERN]"
    );
}

#[test]
fn either_sign_alone_flags_a_retraction() {
    let by_link = Integrity::of(&[link("RetractionIn", "J. 2020;1:2.", Some("1"))], &[]);
    assert!(by_link.retracted());
    let by_type = Integrity::of(&[], &["Retracted Publication".into()]);
    assert!(by_type.retracted());
    assert_eq!(by_type.headline().unwrap(), "RETRACTED");
    let clean = Integrity::of(
        &[link("CommentIn", "J. 2020;1:2.", None)],
        &["Review".into()],
    );
    assert!(clean.flags.is_empty() && clean.headline().is_none());
}

#[test]
fn notices_and_their_old_labels_are_flagged_as_notices() {
    for label in ["Retraction Notice", "Retraction of Publication"] {
        let i = Integrity::of(
            &[link(
                "RetractionOf",
                "Lancet. 1998 Feb 28;351(9103):637-41.",
                Some("9500320"),
            )],
            &[label.into()],
        );
        assert_eq!(i.flags, vec![Flag::RetractionNotice]);
        assert_eq!(
            i.headline().unwrap(),
            "RETRACTION NOTICE: retracts PMID 9500320 (Lancet. 1998 Feb 28;351(9103):637-41)"
        );
    }
    let erratum = Integrity::of(&[], &["Published Erratum".into()]);
    assert_eq!(erratum.flags, vec![Flag::ErratumNotice]);
}

#[test]
fn errata_without_a_pmid_and_replacements_are_named() {
    let i = Integrity::of(
        &[link(
            "ErratumIn",
            "PLoS One. 2013;8(6). doi:10.1371/annotation/df743c15",
            None,
        )],
        &[],
    );
    assert_eq!(
        i.headline().unwrap(),
        "CORRECTED: erratum PLoS One. 2013;8(6)"
    );
    let replaced = Integrity::of(
        &[link("RetractedandRepublishedIn", "J. 2021;2:3.", Some("5"))],
        &[],
    );
    assert_eq!(replaced.flags, vec![Flag::Retracted, Flag::Republished]);
}

#[test]
fn esummary_wordings_and_medline_lines_name_ref_types() {
    assert_eq!(ref_type_of("Retraction in"), Some("RetractionIn"));
    assert_eq!(
        ref_type_of("Expression of concern in"),
        Some("ExpressionOfConcernIn")
    );
    assert_eq!(ref_type_of("Erratum for"), Some("ErratumFor"));
    assert_eq!(ref_type_of("Comment in"), Some("CommentIn"));
    assert_eq!(ref_type_of("Something else"), None);
    let c = medline_correction(
        "RetractionIn",
        "Lancet. 2010 Feb 6;375(9713):445. doi: 10.1016/S0140-6736(10)60175-4. PMID: 20137807",
    );
    assert_eq!(c.pmid.as_deref(), Some("20137807"));
    assert_eq!(
        c.ref_source,
        "Lancet. 2010 Feb 6;375(9713):445. doi: 10.1016/S0140-6736(10)60175-4."
    );
    let no_pmid = medline_correction("ErratumIn", "N Engl J Med. 2005 Mar 3;352(9):950");
    assert_eq!(no_pmid.pmid, None);
}

#[test]
fn summaries_flag_from_their_references_or_say_what_they_lacked() {
    let doc = serde_json::json!({
        "uid": "9500320",
        "pubtype": ["Journal Article", "Retracted Publication"],
        "references": [
            {"refsource": "Lancet. 2010 Feb 6;375(9713):445", "reftype": "Retraction in", "pmid": 20137807, "note": ""},
            {"refsource": "N Engl J Med. 2005 Mar 3;352(9):950", "reftype": "Erratum in", "pmid": "", "note": ""},
            {"refsource": "Lancet. 1998;351:611", "reftype": "Comment in", "pmid": 9500313, "note": ""}
        ]
    });
    let i = Integrity::of_summary(doc.as_object().unwrap());
    assert_eq!(i.basis, Basis::Record);
    assert_eq!(i.flags, vec![Flag::Retracted, Flag::Corrected]);
    assert_eq!(i.notices[0].pmid.as_deref(), Some("20137807"));
    assert_eq!(i.notices[1].pmid, None);
    let types_only = serde_json::json!({"PubTypeList": ["Journal Article"]});
    let t = Integrity::of_summary(types_only.as_object().unwrap());
    assert_eq!((t.basis, t.flags.len()), (Basis::PublicationTypes, 0));
    let neither = serde_json::json!({"title": "x"});
    assert_eq!(
        Integrity::of_summary(neither.as_object().unwrap()).basis,
        Basis::Unavailable
    );
}

#[test]
fn names_are_the_serialized_names() {
    for f in [
        Flag::Retracted,
        Flag::ExpressionOfConcern,
        Flag::Corrected,
        Flag::RetractionNotice,
        Flag::ConcernNotice,
        Flag::ErratumNotice,
        Flag::Updated,
        Flag::Republished,
    ] {
        assert_eq!(
            serde_json::to_value(f).unwrap(),
            serde_json::json!(f.name())
        );
    }
}

#[test]
fn publication_types_alone_say_so() {
    let i = Integrity::of_publication_types(&["Retracted Publication".into()]);
    assert_eq!(i.basis, Basis::PublicationTypes);
    assert_eq!(
        i.headline().unwrap(),
        "RETRACTED (from publication types only)"
    );
}
