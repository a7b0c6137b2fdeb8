#!/usr/bin/env python3
"""Appends the runs of one results store (a tuning run's results.sqlite, .gz allowed) to another
(e.g. tests/data/recorded/h200.sqlite.gz), numbering them after the target's last run id ever
given; their trials, graphs and problems follow, and a problem taken from one of the source's
own runs (from_run, continued_from) points at that run's new id. Source runs the target already
holds (same start, config and GPU: a store that `tuner run --reuse` grew from a copy of the
target) are not copied again; references to them point at the target's copy. A source run that
names a run the source does not hold stops it, as does a source holding no new run.
Stores are read through SQLite's backup (a WAL beside them included); the target is rewritten
in place (gzipped again when its name ends in .gz), and refused while a WAL is beside it;
columns the source has and the target lacks are added to the target first.
Prints the new run ids.

  scripts/append_run.py SOURCE TARGET
"""
import gzip, os, shutil, sqlite3, sys, tempfile


def open_copy(path, tmp, role):
    """A writable in-file copy of the store at path (gunzipped when it ends in .gz), named by its
    role, so that a source and a target of the same file name do not share one copy."""
    out = os.path.join(tmp, role + '-' + os.path.basename(path).removesuffix('.gz') + '.copy')
    if path.endswith('.gz'):
        with gzip.open(path, 'rb') as f, open(out, 'wb') as g:
            shutil.copyfileobj(f, g)
        return sqlite3.connect(out), out
    src = sqlite3.connect('file:%s?mode=ro' % path, uri=True)  # reads its WAL too
    dst = sqlite3.connect(out)
    src.backup(dst)
    src.close()
    return dst, out


def main(source, target):
    if os.path.exists(target + '-wal'):
        sys.exit('append_run: %s-wal exists (a run still open on it?): close it first' % target)
    with tempfile.TemporaryDirectory() as tmp:
        src, _ = open_copy(source, tmp, 'source')
        dst, dst_path = open_copy(target, tmp, 'target')
        dst.execute('pragma journal_mode=delete')
        # Columns the source has and the target does not (added to the tuner's schema since the
        # target was written, e.g. problems.prepare_s): added first, as the tuner would.
        for table in ('runs', 'trials', 'graphs', 'problems'):
            have = {d[1] for d in dst.execute('pragma table_info(%s)' % table)}
            for d in src.execute('pragma table_info(%s)' % table):
                if d[1] not in have:
                    dst.execute('alter table %s add column %s %s' % (table, d[1], d[2]))
        seq = dst.execute("select seq from sqlite_sequence where name = 'runs'").fetchone()
        base = max(dst.execute('select coalesce(max(id), 0) from runs').fetchone()[0], seq[0] if seq else 0)
        runs = src.execute('select * from runs order by id').fetchall()
        if not runs:
            sys.exit('append_run: %s holds no run' % source)
        cols = [d[1] for d in src.execute('pragma table_info(runs)')]
        held = {tuple(k): i for *k, i in dst.execute('select started, config_hash, gpu_uuid, id from runs')}
        key = {c: n for n, c in enumerate(cols)}
        same = {r[0]: held[k] for r in runs
                if (k := (r[key['started']], r[key['config_hash']], r[key['gpu_uuid']])) in held}
        fresh = [r for r in runs if r[0] not in same]
        if not fresh:
            sys.exit('append_run: every run of %s is already in %s' % (source, target))
        new_id = dict(same)
        new_id.update({r[0]: base + i + 1 for i, r in enumerate(fresh)})

        def renumber(v, what):
            if not v:
                return v
            if v not in new_id:
                sys.exit('append_run: %s names run %d, which %s does not hold' % (what, v, source))
            return new_id[v]

        for r in fresh:
            row = dict(zip(cols, r))
            row['continued_from'] = renumber(row.get('continued_from'), 'run %d continued_from' % row['id'])
            row['id'] = new_id[row['id']]
            dst.execute('insert into runs (%s) values (%s)' % (','.join(row), ','.join('?' * len(row))),
                        list(row.values()))
        for table in ('trials', 'graphs', 'problems'):
            tcols = [d[1] for d in src.execute('pragma table_info(%s)' % table)]
            for r in src.execute('select * from %s' % table):
                row = dict(zip(tcols, r))
                if row['run_id'] in same:
                    continue  # the target's copy of that run has them
                row['run_id'] = new_id[row['run_id']]
                if 'from_run' in row:
                    row['from_run'] = renumber(row['from_run'], 'a problem\'s from_run')
                dst.execute('insert into %s (%s) values (%s)' % (table, ','.join(row), ','.join('?' * len(row))),
                            list(row.values()))
        dst.commit()
        dst.execute('vacuum')
        dst.close()
        src.close()
        if target.endswith('.gz'):
            with open(dst_path, 'rb') as f, gzip.open(target + '.tmp', 'wb', compresslevel=9) as g:
                shutil.copyfileobj(f, g)
        else:
            shutil.copyfile(dst_path, target + '.tmp')
        os.replace(target + '.tmp', target)
        print('appended runs', ', '.join('%d -> %d' % (r[0], new_id[r[0]]) for r in fresh), 'to', target,
              '(already there: %s)' % ', '.join('%d as %d' % kv for kv in same.items()) if same else '')


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
