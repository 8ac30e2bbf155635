//! Prompts: the research workflows this server is built for, as slash commands.
//!
//! Each prompt is a table row: a name, its arguments, and a template that
//! becomes one user message naming the exact tool calls to make. The
//! templates only describe calls; nothing runs until the assistant makes them,
//! and each call is still validated on its own.

use crate::error::{Error, ErrorKind, Result};
use crate::json;
use serde_json::{Map, Value};

/// One argument of a prompt.
pub struct PromptArgument {
    /// Name, as it appears in `{name}` in the template.
    pub name: &'static str,
    /// What to give.
    pub description: &'static str,
    /// Whether `prompts/get` refuses a call without it.
    pub required: bool,
    /// Used when an optional argument is not given.
    pub default: &'static str,
}

/// One prompt.
pub struct Prompt {
    /// Its name (`prompts/get`).
    pub name: &'static str,
    /// Display title.
    pub title: &'static str,
    /// What it is for.
    pub description: &'static str,
    /// Its arguments, in order.
    pub arguments: &'static [PromptArgument],
    /// The user message, with `{argument}` placeholders.
    pub template: &'static str,
    /// Whether it needs `entrez_data` (a server with a dataset store).
    pub needs_staging: bool,
}

const fn arg(
    name: &'static str,
    description: &'static str,
    required: bool,
    default: &'static str,
) -> PromptArgument {
    PromptArgument {
        name,
        description,
        required,
        default,
    }
}

/// Every prompt, in the order `prompts/list` shows them.
pub const PROMPTS: &[Prompt] = &[
    Prompt {
        name: "literature_review",
        title: "Literature review of a topic",
        description: "Search PubMed for a topic, stage the articles in SQL and summarise them by year, journal and MeSH heading.",
        arguments: &[
            arg("topic", "The research topic, in words or PubMed syntax (e.g. asthma[mh] AND children).", true, ""),
            arg("since_year", "Earliest publication year to include.", false, "2015"),
            arg("max_records", "Most articles to stage (at most 10000).", false, "2000"),
        ],
        template: "Review the PubMed literature on: {topic} (published {since_year} or later).\n\
1. Count the hits: entrez_query {\"operation\": \"search\", \"database\": \"pubmed\", \"term\": \"({topic}) AND {since_year}:3000[dp]\", \"retmax\": 0}.\n\
2. Stage up to {max_records} of them: entrez_data {\"operation\": \"fetch_and_stage\", \"database\": \"pubmed\", \"term\": \"({topic}) AND {since_year}:3000[dp]\", \"max_records\": {max_records}}; keep the data_access_id it returns.\n\
3. Read the tables with entrez_data {\"operation\": \"schema\", \"data_access_id\": \"…\"}, then answer with read-only SQL (entrez_data operation \"query\"): articles per year, the 10 most frequent journals, the 20 most frequent major MeSH headings.\n\
4. Fetch the abstracts of the 5 most relevant articles with entrez_query {\"operation\": \"fetch\", \"database\": \"pubmed\", \"ids\": [...]} and summarise the findings, citing PMIDs.",
        needs_staging: true,
    },
    Prompt {
        name: "gene_overview",
        title: "A gene: record, sequences and links",
        description: "Find a gene in NCBI Gene, fetch its record and reference sequences, and follow its links to proteins and literature.",
        arguments: &[
            arg("gene", "Gene symbol or name (e.g. BRCA1).", true, ""),
            arg("organism", "Organism, scientific or common name.", false, "Homo sapiens"),
        ],
        template: "Give an overview of the gene {gene} in {organism}.\n\
1. Find it: entrez_query {\"operation\": \"search\", \"database\": \"gene\", \"term\": \"{gene}[sym] AND \\\"{organism}\\\"[orgn]\", \"retmax\": 5}.\n\
2. Read its record: entrez_query {\"operation\": \"fetch\", \"database\": \"gene\", \"ids\": [\"<GeneID>\"]} (location, aliases, summary).\n\
3. Follow its links: entrez_query {\"operation\": \"link\", \"dbfrom\": \"gene\", \"database\": \"protein\", \"ids\": [\"<GeneID>\"], \"linkname\": \"gene_protein_refseq\"}, and the same with \"database\": \"pubmed\", \"linkname\": \"gene_pubmed\" for its literature.\n\
4. Fetch one RefSeq protein: entrez_query {\"operation\": \"fetch\", \"database\": \"protein\", \"ids\": [\"<accession>\"], \"rettype\": \"fasta\"}.\n\
Report the gene's location and function, its main RefSeq products and three key papers (with PMIDs).",
        needs_staging: false,
    },
    Prompt {
        name: "compound_profile",
        title: "A compound: properties and literature",
        description: "Look a compound up in PubChem (properties, synonyms, structure) and find the literature about it in PubMed.",
        arguments: &[arg("compound", "Compound name, e.g. aspirin.", true, "")],
        template: "Profile the compound {compound}.\n\
1. Properties: entrez_external {\"service\": \"pubchem\", \"operation\": \"compound\", \"namespace\": \"name\", \"identifier\": \"{compound}\"} (formula, weight, SMILES, InChIKey, XLogP).\n\
2. Other names: the same call with \"data\": \"synonyms\"; a picture with \"data\": \"picture\".\n\
3. Literature: entrez_query {\"operation\": \"search\", \"database\": \"pubmed\", \"term\": \"\\\"{compound}\\\"[nm] OR \\\"{compound}\\\"[tiab]\", \"retmax\": 10, \"sort\": \"relevance\"}, then entrez_query operation \"summary\" on the PMIDs.\n\
Report identity, key properties and what the recent literature says, citing PMIDs and the CID.",
        needs_staging: false,
    },
    Prompt {
        name: "fetch_records",
        title: "Fetch records in a chosen format",
        description: "Fetch records of any Entrez database in one of the formats NCBI documents for it.",
        arguments: &[
            arg("database", "Entrez database, e.g. nuccore.", true, ""),
            arg("ids", "Comma-separated UIDs or accessions.", true, ""),
            arg("rettype", "Format NCBI documents for the database (e.g. fasta, gb).", false, ""),
        ],
        template: "Fetch these records from {database}: {ids}.\n\
Call entrez_query {\"operation\": \"fetch\", \"database\": \"{database}\", \"ids\": \"{ids}\", \"rettype\": \"{rettype}\"} (leave rettype out if it is empty, and check the call first with validate if unsure), then show what each record contains.",
        needs_staging: false,
    },
    Prompt {
        name: "query_dataset",
        title: "Answer a question from a staged dataset",
        description: "Answer a question with read-only SQL over a dataset staged with entrez_data.",
        arguments: &[
            arg("data_access_id", "The dataset's id, from fetch_and_stage or list_datasets.", true, ""),
            arg("question", "What to find out.", true, ""),
        ],
        template: "Using the staged dataset {data_access_id}, answer: {question}\n\
1. Read its tables: entrez_data {\"operation\": \"schema\", \"data_access_id\": \"{data_access_id}\"} (also readable as the resource entrez-dataset://{data_access_id}/schema).\n\
2. Write SELECT queries that answer the question and run them with entrez_data {\"operation\": \"query\", \"data_access_id\": \"{data_access_id}\", \"sql\": \"…\"}.\n\
3. Answer in words, with the numbers and the SQL you used.",
        needs_staging: true,
    },
];

/// The prompts a server offers: those that need a dataset store only where there is one.
pub fn offered(staging: bool) -> impl Iterator<Item = &'static Prompt> {
    PROMPTS.iter().filter(move |p| staging || !p.needs_staging)
}

/// The prompt named `name`, if offered.
pub fn find(name: &str, staging: bool) -> Option<&'static Prompt> {
    offered(staging).find(|p| p.name == name)
}

/// `prompts/list`.
pub fn list(staging: bool) -> Value {
    let prompts: Vec<Value> = offered(staging)
        .map(|p| {
            let arguments: Vec<Value> = p
                .arguments
                .iter()
                .map(|a| json!({ "name": a.name, "description": a.description, "required": a.required }))
                .collect();
            json!({ "name": p.name, "title": p.title, "description": p.description, "arguments": arguments })
        })
        .collect();
    json!({ "prompts": prompts })
}

/// `prompts/get`: the prompt's message with `arguments` filled in.
pub fn get(name: &str, arguments: Option<&Value>, staging: bool) -> Result<Value> {
    let Some(prompt) = find(name, staging) else {
        let names: Vec<&str> = offered(staging).map(|p| p.name).collect();
        return Err(
            Error::new(ErrorKind::InvalidParams, format!("Unknown prompt: {name}."))
                .with_code("unknown_prompt")
                .suggest(format!("prompts/list shows them: {}.", names.join(", "))),
        );
    };
    let given: Map<String, Value> = match arguments {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => {
            return Err(Error::new(
                ErrorKind::InvalidParams,
                "prompts/get arguments must be an object of strings.",
            ))
        }
    };
    let mut text = prompt.template.to_string();
    for a in prompt.arguments {
        let value = match given.get(a.name) {
            Some(Value::String(s)) if !s.trim().is_empty() => s.trim().to_string(),
            Some(Value::Number(n)) => n.to_string(),
            _ if a.required => {
                return Err(Error::new(
                    ErrorKind::InvalidParams,
                    format!(
                        "Prompt {name} needs the argument {}: {}",
                        a.name, a.description
                    ),
                )
                .with_code("missing_prompt_argument"))
            }
            _ => a.default.to_string(),
        };
        text = text.replace(&format!("{{{}}}", a.name), &value);
    }
    Ok(json!({
        "description": prompt.description,
        "messages": [{ "role": "user", "content": { "type": "text", "text": text } }],
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_placeholder_is_an_argument_and_every_argument_is_used() {
        for p in PROMPTS {
            for a in p.arguments {
                assert!(
                    p.template.contains(&format!("{{{}}}", a.name)),
                    "{}: {}",
                    p.name,
                    a.name
                );
            }
            let filled: Map<String, Value> = p
                .arguments
                .iter()
                .map(|a| (a.name.to_string(), json!("X")))
                .collect();
            let got = get(p.name, Some(&Value::Object(filled)), true).unwrap();
            let text = got["messages"][0]["content"]["text"].as_str().unwrap();
            for a in p.arguments {
                assert!(!text.contains(&format!("{{{}}}", a.name)), "{}", p.name);
            }
        }
    }

    #[test]
    fn optional_arguments_take_their_defaults_and_required_ones_are_enforced() {
        let got = get("gene_overview", Some(&json!({"gene": "BRCA1"})), false).unwrap();
        let text = got["messages"][0]["content"]["text"].as_str().unwrap();
        assert!(text.contains("BRCA1 in Homo sapiens"), "{text}");
        let e = get("gene_overview", Some(&json!({"organism": "mouse"})), false).unwrap_err();
        assert_eq!(
            (e.kind, e.code.as_str()),
            (ErrorKind::InvalidParams, "missing_prompt_argument")
        );
        let e = get("nope", None, true).unwrap_err();
        assert_eq!(e.code, "unknown_prompt");
    }

    #[test]
    fn dataset_prompts_exist_only_with_a_store() {
        assert!(find("literature_review", false).is_none());
        assert!(find("literature_review", true).is_some());
        assert_eq!(list(false)["prompts"].as_array().unwrap().len(), 3);
        assert_eq!(
            list(true)["prompts"].as_array().unwrap().len(),
            PROMPTS.len()
        );
    }
}
