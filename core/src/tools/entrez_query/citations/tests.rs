//! The citations answer's shaping and budget rules, on hand-built papers.

use super::*;
use crate::citations::client::{Citations, Source};

#[test]
fn a_paper_without_pubmeds_summary_has_an_unknown_retraction_flag() {
    let paper = Paper {
        pmid: 7,
        source: Source::Elink,
        cited_by: vec![8],
        references: Vec::new(),
        icite: None,
    };
    let e = entry(&paper, None);
    assert_eq!(e["retracted"], Value::Null, "{e}");
    assert_eq!(e["cited_by"], json!(["8"]));
}

#[test]
fn lists_too_long_for_the_largest_budget_point_at_a_network_not_at_the_same_call() {
    // A paper with 40,000 citers: at the largest budget its list is still cut.
    let paper = Paper {
        pmid: 7,
        source: Source::Elink,
        cited_by: (1..=40_000).collect(),
        references: Vec::new(),
        icite: None,
    };
    let papers = vec![entry(&paper, None)];
    let at = |max_characters: usize| {
        let view = View {
            max_characters,
            ..View::default()
        };
        answer(
            1,
            papers.clone(),
            &Citations::default(),
            &Records::default(),
            &[],
            &view,
        )
    };
    let top = at(crate::framework::view::CEILING);
    assert!(
        top.structured.get("ids_next_call").is_none(),
        "{}",
        top.structured
    );
    assert!(top.structured["ids_cut_to"].as_u64().is_some());
    assert!(
        top.text.contains("stage them as a citation network"),
        "{}",
        top.text
    );
    // Below it, the call at the largest budget is offered.
    let default = at(View::default().max_characters);
    assert_eq!(
        default.structured["ids_next_call"]["arguments"]["max_characters"],
        crate::framework::view::CEILING
    );
}
