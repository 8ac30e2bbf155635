//! Tables as data, and the SQLite text derived from them.
//!
//! Every staged table is described once, statically, with a one-line meaning
//! per column. The same description yields the `CREATE TABLE`/`CREATE INDEX`
//! statements a backend runs, the `INSERT` each batch is bound to, and the
//! column notes the `schema` operation shows. Both backends are SQLite, so
//! the SQL text can be built here, in the core, and shared.

/// The SQLite storage class a column is declared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnType {
    /// 64-bit integer (ids, years, counts, 0/1 flags).
    Integer,
    /// Floating point.
    Real,
    /// UTF-8 text.
    Text,
}

impl ColumnType {
    /// The declared type name.
    pub fn sql(self) -> &'static str {
        match self {
            ColumnType::Integer => "INTEGER",
            ColumnType::Real => "REAL",
            ColumnType::Text => "TEXT",
        }
    }
}

/// One column of a staged table.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    /// Column name.
    pub name: &'static str,
    /// Declared type.
    pub ty: ColumnType,
    /// Whether every row has a value.
    pub not_null: bool,
    /// What the column holds, shown by the `schema` operation.
    pub doc: &'static str,
}

/// A column that always has a value.
pub const fn req(name: &'static str, ty: ColumnType, doc: &'static str) -> Column {
    Column {
        name,
        ty,
        not_null: true,
        doc,
    }
}

/// A column that may be NULL.
pub const fn opt(name: &'static str, ty: ColumnType, doc: &'static str) -> Column {
    Column {
        name,
        ty,
        not_null: false,
        doc,
    }
}

/// A declared foreign key: these columns point at a parent table's key.
#[derive(Debug, Clone, Copy)]
pub struct ForeignKey {
    /// Columns of this table.
    pub columns: &'static [&'static str],
    /// The parent table.
    pub table: &'static str,
    /// The parent's columns, in the same order.
    pub references: &'static [&'static str],
}

/// A secondary index.
#[derive(Debug, Clone, Copy)]
pub struct Index {
    /// Index name, unique within the dataset.
    pub name: &'static str,
    /// Indexed columns, in order.
    pub columns: &'static [&'static str],
}

/// One table of a layout.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    /// Table name.
    pub name: &'static str,
    /// What one row is.
    pub doc: &'static str,
    /// Columns in insert order.
    pub columns: &'static [Column],
    /// Primary key columns.
    pub primary_key: &'static [&'static str],
    /// Declared foreign keys (documented, not enforced, so batches insert in any order).
    pub foreign_keys: &'static [ForeignKey],
    /// Secondary indexes on join and lookup columns.
    pub indexes: &'static [Index],
}

impl Table {
    /// The column named `name`.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }

    /// `CREATE TABLE` for this table.
    pub fn create_sql(&self) -> String {
        let mut parts: Vec<String> = self
            .columns
            .iter()
            .map(|c| {
                let null = if c.not_null { " NOT NULL" } else { "" };
                format!("{} {}{null}", c.name, c.ty.sql())
            })
            .collect();
        parts.push(format!("PRIMARY KEY ({})", self.primary_key.join(", ")));
        for fk in self.foreign_keys {
            parts.push(format!(
                "FOREIGN KEY ({}) REFERENCES {} ({})",
                fk.columns.join(", "),
                fk.table,
                fk.references.join(", ")
            ));
        }
        // Rowid tables even for composite keys: rows carry long text (abstracts,
        // affiliations), which SQLite stores poorly in WITHOUT ROWID b-trees; measured
        // 1.6x faster to stage and 13% smaller on the benchmark.
        format!("CREATE TABLE {} ({})", self.name, parts.join(", "))
    }

    /// `CREATE INDEX` statements for the secondary indexes.
    pub fn index_sql(&self) -> Vec<String> {
        self.indexes
            .iter()
            .map(|i| {
                format!(
                    "CREATE INDEX IF NOT EXISTS {} ON {} ({})",
                    i.name,
                    self.name,
                    i.columns.join(", ")
                )
            })
            .collect()
    }

    /// The INSERT each row is bound to; a row already staged is left as it is.
    pub fn insert_sql(&self) -> String {
        self.insert_rows_sql(1)
    }

    /// One INSERT for `rows` rows at once, for backends that pay per statement
    /// (Durable Object SQL crosses into JavaScript on every call).
    pub fn insert_rows_sql(&self, rows: usize) -> String {
        let names: Vec<&str> = self.columns.iter().map(|c| c.name).collect();
        let one = format!("({})", vec!["?"; names.len()].join(", "));
        let values = vec![one.as_str(); rows.max(1)].join(", ");
        // Not INSERT OR REPLACE: replacing deletes first, which would cascade and renumber.
        // OR IGNORE rather than ON CONFLICT DO NOTHING: an upsert may abort midway, so
        // SQLite keeps a statement journal for it, which made staging 20% slower. OR
        // IGNORE would also drop a row missing a required value without a word, so
        // `TableRows::push` refuses those first, and the result says so.
        format!(
            "INSERT OR IGNORE INTO {} ({}) VALUES {values}",
            self.name,
            names.join(", ")
        )
    }

    /// One statement inserting every row of a JSON array of rows bound as its one parameter
    /// (`[[v1, v2, ...], ...]`, values in column order), with the same `OR IGNORE` as
    /// [`Table::insert_rows_sql`]. `->>` gives each value its SQL type back (a JSON integer
    /// an INTEGER, a float a REAL, a string TEXT, null NULL).
    pub fn insert_json_sql(&self) -> String {
        let names: Vec<&str> = self.columns.iter().map(|c| c.name).collect();
        let values: Vec<String> = (0..names.len()).map(|i| format!("value ->> {i}")).collect();
        format!(
            "INSERT OR IGNORE INTO {} ({}) SELECT {} FROM json_each(?1)",
            self.name,
            names.join(", "),
            values.join(", ")
        )
    }
}

/// A query that is known to run on every dataset of a layout.
#[derive(Debug, Clone, Copy)]
pub struct Example {
    /// What the query answers.
    pub title: &'static str,
    /// The SQL.
    pub sql: &'static str,
}

/// The tables one kind of source is staged into.
#[derive(Debug, Clone, Copy)]
pub struct Layout {
    /// Stable layout name, e.g. `pubmed` or `generic`.
    pub name: &'static str,
    /// What the layout holds and where it comes from.
    pub doc: &'static str,
    /// The table with one row per staged record.
    pub primary: &'static str,
    /// Tables in insert order (parents first).
    pub tables: &'static [Table],
    /// Queries (three or more) that run on any dataset of this layout.
    pub examples: &'static [Example],
}

impl Layout {
    /// `(table, 0)` for every table, in order: the row counts of a new dataset.
    pub fn empty_counts(&self) -> Vec<(&'static str, u64)> {
        self.tables.iter().map(|t| (t.name, 0)).collect()
    }

    /// The statements that create the empty tables.
    pub fn table_ddl(&self) -> Vec<String> {
        self.tables.iter().map(Table::create_sql).collect()
    }

    /// The statements that create the secondary indexes; run once staging ends,
    /// because building an index once is cheaper than keeping it up to date per row.
    pub fn index_ddl(&self) -> Vec<String> {
        self.tables.iter().flat_map(Table::index_sql).collect()
    }

    /// The table named `name`.
    pub fn table(&self, name: &str) -> Option<&'static Table> {
        self.tables.iter().find(|t| t.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ColumnType::*;

    const T: Table = Table {
        name: "author",
        doc: "d",
        columns: &[
            req("pmid", Integer, "p"),
            req("position", Integer, "n"),
            opt("last_name", Text, "l"),
        ],
        primary_key: &["pmid", "position"],
        foreign_keys: &[ForeignKey {
            columns: &["pmid"],
            table: "article",
            references: &["pmid"],
        }],
        indexes: &[Index {
            name: "author_last_name",
            columns: &["last_name"],
        }],
    };

    #[test]
    fn sql_follows_the_description() {
        assert_eq!(
            T.create_sql(),
            "CREATE TABLE author (pmid INTEGER NOT NULL, position INTEGER NOT NULL, last_name TEXT, PRIMARY KEY (pmid, position), FOREIGN KEY (pmid) REFERENCES article (pmid))"
        );
        assert_eq!(
            T.index_sql(),
            vec!["CREATE INDEX IF NOT EXISTS author_last_name ON author (last_name)"]
        );
        assert_eq!(
            T.insert_sql(),
            "INSERT OR IGNORE INTO author (pmid, position, last_name) VALUES (?, ?, ?)"
        );
        assert_eq!(
            T.insert_rows_sql(2),
            "INSERT OR IGNORE INTO author (pmid, position, last_name) VALUES (?, ?, ?), (?, ?, ?)"
        );
    }
}
