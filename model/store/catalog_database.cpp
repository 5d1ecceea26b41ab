#include "catalog_database.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <unistd.h>

#include "design_json.h"
#include "input_error.h"
#include "input_file.h"
#include "sqlite_handle.h"

namespace ctwin::store {

using model::InputError;
using model::InputLocation;

namespace {
constexpr std::int64_t kCatalogSchemaVersion = 1;

const char* kCatalogSchema = R"sql(
CREATE TABLE schema_version(version INTEGER NOT NULL);
CREATE TABLE item(ord INTEGER NOT NULL, id TEXT PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL,
                  kind TEXT NOT NULL);
CREATE TABLE attribute(item TEXT NOT NULL REFERENCES item(id), key TEXT NOT NULL, value TEXT NOT NULL,
                       PRIMARY KEY(item, key));
CREATE TABLE value(item TEXT NOT NULL REFERENCES item(id), field TEXT NOT NULL, base REAL NOT NULL,
                   low REAL NOT NULL, high REAL NOT NULL, source TEXT NOT NULL, estimate INTEGER NOT NULL,
                   PRIMARY KEY(item, field));
)sql";
} // namespace

void writeCatalogDatabase(const model::Catalog& catalog, const std::string& path) {
    std::string tmp = path + ".tmp-XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        throw InputError(InputLocation{path, "", "", "", ""}, "cannot write (" + std::string(std::strerror(errno)) + ")");
    ::close(fd);
    try {
        {
            SqliteHandle db(tmp, SqliteHandle::Mode::ReadWrite);
            db.exec(kCatalogSchema);
            db.exec("BEGIN;");
            SqliteStatement v(db, "INSERT INTO schema_version VALUES (?1)");
            v.bind(1, kCatalogSchemaVersion);
            v.step();
            SqliteStatement item(db, "INSERT INTO item VALUES (?1, ?2, ?3, ?4, ?5)");
            SqliteStatement attr(db, "INSERT INTO attribute VALUES (?1, ?2, ?3)");
            SqliteStatement val(db, "INSERT INTO value VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
            std::int64_t ord = 0;
            for (const auto& it : catalog.items()) {
                item.bind(1, ord++);
                item.bind(2, it.id);
                item.bind(3, it.name);
                item.bind(4, it.category);
                item.bind(5, it.kind);
                item.step();
                item.reset();
                for (const auto& [k, a] : it.attributes) {
                    attr.bind(1, it.id);
                    attr.bind(2, k);
                    attr.bind(3, a);
                    attr.step();
                    attr.reset();
                }
                for (const auto& [field, x] : it.values) {
                    val.bind(1, it.id);
                    val.bind(2, field);
                    val.bind(3, x.base);
                    val.bind(4, x.low);
                    val.bind(5, x.high);
                    val.bind(6, x.source);
                    val.bind(7, static_cast<std::int64_t>(x.estimate));
                    val.step();
                    val.reset();
                }
            }
            db.exec("COMMIT;");
        }
        if (std::rename(tmp.c_str(), path.c_str()) != 0)
            throw InputError(InputLocation{path, "", "", "", ""}, "cannot replace (" + std::string(std::strerror(errno)) + ")");
    } catch (...) {
        std::remove(tmp.c_str());
        throw;
    }
}

model::Catalog loadCatalogDatabase(const std::string& path) {
    model::requireRegularFile(path, model::kMaxDesignFileBytes, "catalog database");
    SqliteHandle db(path, SqliteHandle::Mode::ReadOnly);
    db.requireOrdinaryTables({"schema_version", "item", "attribute", "value"}, {});
    {
        SqliteStatement v(db, "SELECT version FROM schema_version");
        if (!v.step() || v.integer(0) != kCatalogSchemaVersion)
            throw InputError(InputLocation{path, "", "", "", "schema_version"}, "unsupported catalog schema version");
    }
    std::vector<model::CatalogItem> items;
    std::unordered_map<std::string, size_t> at;
    {
        SqliteStatement q(db, "SELECT id, name, category, kind FROM item ORDER BY ord");
        while (q.step()) {
            model::CatalogItem item;
            item.id = q.text(0);
            item.name = q.text(1);
            item.category = q.text(2);
            item.kind = q.text(3);
            if (!at.emplace(item.id, items.size()).second)
                throw InputError(InputLocation{path, "", item.id, "", "id"}, "catalog item id given twice");
            items.push_back(std::move(item));
        }
    }
    // A row of `attribute` or `value` must name an item of the `item` table (the foreign key is not enforced
    // on read): a damaged database gets a message, not std::out_of_range.
    auto itemOf = [&](const std::string& id, const char* table) -> model::CatalogItem& {
        const auto it = at.find(id);
        if (it == at.end())
            throw InputError(InputLocation{path, "", id, "", table},
                             std::string("a row of table '") + table + "' names an item that is not in table 'item'");
        return items[it->second];
    };
    {
        SqliteStatement q(db, "SELECT item, key, value FROM attribute");
        while (q.step()) itemOf(q.text(0), "attribute").attributes[q.text(1)] = q.text(2);
    }
    {
        SqliteStatement q(db, "SELECT item, field, base, low, high, source, estimate FROM value");
        while (q.step())
            itemOf(q.text(0), "value").values[q.text(1)] =
                model::CatalogValue{q.real(2), q.real(3), q.real(4), q.text(5), q.integer(6) != 0};
    }
    for (const auto& item : items) model::checkCatalogItem(item, path);
    model::Catalog catalog(std::move(items));
    model::checkCatalogReferences(catalog, path);
    return catalog;
}

} // namespace ctwin::store
