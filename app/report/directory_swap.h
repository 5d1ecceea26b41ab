#pragma once
#include <filesystem>
#include <set>
#include <string>

namespace ctwin::app {

/// A report folder (the CSV tables) replaced as a whole: every file is written into a temporary sibling
/// folder `.NAME.tmp-XXXXXX`, flushed to disk, and commit() swaps that folder into place in one step
/// (renameat2(2) RENAME_EXCHANGE on Linux, then the old folder is removed), so a kill at any point leaves
/// the old complete folder or the new complete folder, never a mix; at worst a stale temporary folder stays
/// beside it, and the next write of the same folder removes it. Where the file system has no exchange
/// (EINVAL), the old folder is renamed aside to `.NAME.old-XXXXXX` and the new one renamed into place: a kill
/// between those two renames leaves the old complete folder under that name and none at NAME.
///
/// A folder that holds anything the report does not write (a name outside `ownNames`, a subfolder, a
/// symbolic link) is refused, never replaced: the user pointed the report at a folder of their own.
class DirectorySwap {
public:
    /// `directory`: the folder to write (created with its missing parents; a symbolic link is followed and
    /// the folder it points to is replaced). `ownNames`: the file names such a folder may hold. `what`
    /// names the report in messages ("a CSV report"). Removes stale temporaries of earlier killed writes,
    /// then creates the temporary folder. Throws model::InputError naming `directory`.
    DirectorySwap(const std::string& directory, std::set<std::string> ownNames, std::string what);
    /// Not committed: removes the temporary folder and any parent folder this object created.
    ~DirectorySwap();
    DirectorySwap(const DirectorySwap&) = delete;
    DirectorySwap& operator=(const DirectorySwap&) = delete;

    /// Writes the file `name` (one of ownNames) into the temporary folder and flushes it to disk.
    void write(const std::string& name, const std::string& bytes);
    /// Checks the target again and swaps the temporary folder into place. Throws model::InputError naming the
    /// directory ("...; it is unchanged") when the folder cannot be replaced.
    void commit();
    /// Throws model::InputError naming the directory with `problem`.
    [[noreturn]] void fail(const std::string& problem) const;

private:
    void create();
    void cleanUp();
    void checkReplaceable() const;

    std::string m_requested, m_what;
    std::filesystem::path m_target, m_temp, m_created;
    std::set<std::string> m_own;
    int m_lock = -1; // open on the temporary folder, flock(2)ed while this write is running
    bool m_committed = false;
};

/// Removes what killed writes of the folder `target` left beside it: folders named exactly
/// `.NAME.tmp-XXXXXX` or `.NAME.old-XXXXXX` that no running write holds (each write keeps an flock(2) on its
/// temporary folder). Never throws; returns how many folders it removed.
int removeStaleDirectoryTemps(const std::filesystem::path& target);

} // namespace ctwin::app
