#!/usr/bin/env python3
"""Appends the runs of one results store (a tuning run's results.sqlite, .gz allowed) to another
(e.g. the recorded runs, tests/data/recorded/h200/), numbering them after the target's last run
id ever given; their trials, graphs and problems follow, and a problem taken from one of the
source's own runs (from_run, continued_from) points at that run's new id. Source runs the target
already holds (same start, config and GPU: a store that `tuner run --reuse` grew from a copy of
the target) are not copied again; references to them point at the target's copy. A source run
that names a run the source does not hold stops it, as does a source holding no new run.
A target that is a folder of stores (scripts/recorded_store.py) gets each new run as a file of
its own, run-NNNN.sqlite.gz, and nothing else in it changes; a target file is rewritten in place
(gzipped again when its name ends in .gz), and refused while a WAL is beside it. Stores are read
through SQLite's backup (a WAL beside them included); columns the source has and the target
lacks are added to the target first.
Prints the new run ids.

  scripts/append_run.py SOURCE TARGET
"""
import os, sqlite3, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import recorded_store  # noqa: E402


def open_copy(path, tmp, role):
    """A writable in-file copy of the store at path (a file, gunzipped when it ends in .gz, or a
    folder's stores merged), named by its role, so that a source and a target of the same file
    name do not share one copy."""
    out = os.path.join(tmp, role + '.copy')
    try:
        recorded_store.merged_copy(path, out)
    except recorded_store.StoreError as e:
        sys.exit('append_run: %s' % e)
    return sqlite3.connect(out), out


def main(source, target):
    folder = os.path.isdir(target)
    if not folder and os.path.exists(target + '-wal'):
        sys.exit('append_run: %s-wal exists (a run still open on it?): close it first' % target)
    with tempfile.TemporaryDirectory() as tmp:
        src, _ = open_copy(source, tmp, 'source')
        dst, dst_path = open_copy(target, tmp, 'target')
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
        src.close()
        if folder:
            dst.close()
            outs = [os.path.join(target, 'run-%04d.sqlite.gz' % new_id[r[0]]) for r in fresh]
            taken = [o for o in outs if os.path.exists(o)]
            if taken:
                sys.exit('append_run: %s already exists; nothing appended' % taken[0])
            for r, out in zip(fresh, outs):
                recorded_store.cut(dst_path, new_id[r[0]], out)
        else:
            dst.execute('vacuum')
            dst.close()
            recorded_store.write_store(dst_path, target)
        print('appended runs', ', '.join('%d -> %d' % (r[0], new_id[r[0]]) for r in fresh), 'to', target,
              '(already there: %s)' % ', '.join('%d as %d' % kv for kv in same.items()) if same else '')


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
