//! The deployment's staging ledger, in one Durable Object every isolate reaches by name.
//!
//! Per-owner catalogs cannot see each other, and owners are cheap to make, so the ceilings
//! on what anonymous addresses, identities and the whole deployment may hold live here, in
//! a single object: it handles one command at a time, so an admission checks and records in
//! one step, and no two stagings can both take the last slot. The book is kept in the
//! object's storage after every change; entries past their expiry count for nothing, so
//! datasets expiring by their own alarms need tell it nothing.

use super::do_sql::{command, reply};
use entrez_mcp_core::error::{Error, Result};
use entrez_mcp_core::staging::ledger::{LedgerState, Quotas};
use entrez_mcp_core::staging::Limits;
use entrez_mcp_wire::LedgerCommand;
use std::cell::RefCell;
use worker::{durable_object, DurableObject, Env, Request, Response, State};

const BOOK_KEY: &str = "book";

/// The Durable Object holding the deployment's ledger.
#[durable_object]
pub struct EntrezLedger {
    state: State,
    book: RefCell<Option<LedgerState>>,
    quotas: Quotas,
}

impl DurableObject for EntrezLedger {
    fn new(state: State, env: Env) -> Self {
        let lookup = |name: &str| crate::fetch::lookup(&env, name);
        EntrezLedger {
            state,
            book: RefCell::new(None),
            quotas: Quotas::from_lookup(lookup, &Limits::from_lookup(lookup)),
        }
    }

    async fn fetch(&self, mut req: Request) -> worker::Result<Response> {
        let command: LedgerCommand = match command(&mut req).await {
            Ok(c) => c,
            Err(e) => return reply::<()>(Err(Error::internal(format!("bad ledger command: {e}")))),
        };
        if self.book.borrow().is_none() {
            let stored: Option<LedgerState> =
                self.state.storage().get(BOOK_KEY).await.ok().flatten();
            *self.book.borrow_mut() = Some(stored.unwrap_or_default());
        }
        let (outcome, changed): (Result<serde_json::Value>, bool) = {
            let mut slot = self.book.borrow_mut();
            let book = slot.get_or_insert_with(LedgerState::default);
            match command {
                LedgerCommand::Admit {
                    id,
                    account,
                    expires_ms,
                    now_ms,
                } => {
                    let r = book.admit(&id, &account, expires_ms, &self.quotas, now_ms);
                    let ok = r.is_ok();
                    (
                        r.and_then(|a| {
                            serde_json::to_value(a).map_err(|e| Error::internal(e.to_string()))
                        }),
                        ok,
                    )
                }
                // The size is written down even when it passed a ceiling (the refusal stops
                // the staging; the bytes are stored all the same).
                LedgerCommand::Record {
                    id,
                    bytes,
                    expires_ms,
                    running_until_ms,
                } => {
                    let r = book.record(&id, bytes, expires_ms, running_until_ms, &self.quotas);
                    (r.map(|()| serde_json::Value::Null), true)
                }
                LedgerCommand::ChargeTask {
                    id,
                    account,
                    bytes,
                    expires_ms,
                    running_until_ms,
                    now_ms,
                } => {
                    let charge = (bytes, expires_ms, running_until_ms);
                    let r = book.charge_task(&id, &account, charge, &self.quotas, now_ms);
                    let ok = r.is_ok();
                    (r.map(|()| serde_json::Value::Null), ok)
                }
                LedgerCommand::Release { id } => {
                    book.release(&id);
                    (Ok(serde_json::Value::Null), true)
                }
                LedgerCommand::Allowance { account, now_ms } => (
                    serde_json::to_value(book.allowance(&account, &self.quotas, now_ms))
                        .map_err(|e| Error::internal(e.to_string())),
                    false,
                ),
            }
        };
        if changed {
            self.save().await?;
        }
        reply(outcome)
    }
}

impl EntrezLedger {
    async fn save(&self) -> worker::Result<()> {
        let book = self.book.borrow().clone().unwrap_or_default();
        self.state.storage().put(BOOK_KEY, &book).await
    }
}
