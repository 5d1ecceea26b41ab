#pragma once
// Writes a .ctwin in the entity layout of schema versions 1 and 2 (each entity as interchange JSON text in
// `entity.body`), as builds before schema 3 (issue 15 item 6, typed tables) saved it, so tests can check
// that such files still open. Test-only: the product writes schema 3 (model/store/design_file.cpp).
#include "design_json.h"
#include "project.h"
#include "sqlite_handle.h"

#include <string>

namespace ctwin::test_support {

inline void writeLegacyCtwin(const model::Project& project, const std::string& path, int version = 2) {
    using ojson = nlohmann::ordered_json;
    const ojson doc = model::projectToJson(project);
    store::SqliteHandle db(path, store::SqliteHandle::Mode::ReadWrite);
    // The schema-2 builds' DDL, verbatim.
    db.exec(R"sql(
CREATE TABLE schema_version(version INTEGER NOT NULL);
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entity(
  kind   TEXT NOT NULL,     -- collection key of the interchange format ("racks")
  ord    INTEGER NOT NULL,  -- position within its collection
  id     TEXT PRIMARY KEY,  -- stable, document-unique id
  parent TEXT,              -- id of the containing entity (site/building/hall/row), for queries
  body   TEXT NOT NULL      -- the entity as interchange JSON (SI units, unit in every key)
);
CREATE INDEX entity_kind_ord ON entity(kind, ord);
CREATE INDEX entity_parent ON entity(parent);
)sql");
    db.exec("BEGIN;");
    store::SqliteStatement v(db, "INSERT INTO schema_version(version) VALUES (?1)");
    v.bind(1, static_cast<std::int64_t>(version));
    v.step();
    store::SqliteStatement meta(db, "INSERT INTO meta(key, value) VALUES (?1, ?2)");
    for (const char* key : {"format", "project", "assumptions"}) {
        meta.bind(1, std::string(key));
        meta.bind(2, doc[key].dump());
        meta.step();
        meta.reset();
    }
    store::SqliteStatement ins(db,
                               "INSERT INTO entity(kind, ord, id, parent, body) VALUES (?1, ?2, ?3, ?4, ?5)");
    for (auto kind : model::kAllEntityKinds) {
        const std::string key(model::entityCollectionKey(kind));
        std::int64_t ord = 0;
        for (const auto& e : doc[key]) {
            std::string parent;
            for (const char* p : {"row", "hall", "building", "site"})
                if (auto it = e.find(p); parent.empty() && it != e.end() && it->is_string())
                    parent = it->get<std::string>();
            ins.bind(1, key);
            ins.bind(2, ord++);
            ins.bind(3, e["id"].get<std::string>());
            ins.bind(4, parent);
            ins.bind(5, e.dump());
            ins.step();
            ins.reset();
        }
    }
    db.exec("COMMIT;");
}

} // namespace ctwin::test_support
