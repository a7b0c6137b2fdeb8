#!/usr/bin/env python3
"""Appends the runs of one results store (a tuning run's results.sqlite, .gz allowed) to another
(e.g. tests/data/recorded/h200.sqlite.gz), renumbering them after the target's last run; their
trials, graphs and problems follow, and a problem taken from one of the source's own runs
(from_run, continued_from) points at that run's new id. The target is rewritten in place (gzipped
again when its name ends in .gz). Prints the new run ids.

  scripts/append_run.py SOURCE TARGET
"""
import gzip, os, shutil, sqlite3, sys, tempfile


def open_copy(path, tmp):
    """A writable sqlite copy of path (gunzipped when it ends in .gz)."""
    out = os.path.join(tmp, os.path.basename(path).removesuffix('.gz'))
    with (gzip.open(path, 'rb') if path.endswith('.gz') else open(path, 'rb')) as f, open(out, 'wb') as g:
        shutil.copyfileobj(f, g)
    return out


def main(source, target):
    with tempfile.TemporaryDirectory() as tmp:
        src_path, dst_path = open_copy(source, tmp), open_copy(target, tmp)
        src, dst = sqlite3.connect(src_path), sqlite3.connect(dst_path)
        base = dst.execute('select coalesce(max(id), 0) from runs').fetchone()[0]
        runs = src.execute('select * from runs order by id').fetchall()
        if not runs:
            sys.exit('append_run: %s holds no run' % source)
        cols = [d[1] for d in src.execute('pragma table_info(runs)')]
        new_id = {r[0]: base + i + 1 for i, r in enumerate(runs)}
        for r in runs:
            row = dict(zip(cols, r))
            row['id'] = new_id[row['id']]
            if row.get('continued_from'):
                row['continued_from'] = new_id.get(row['continued_from'], row['continued_from'])
            dst.execute('insert into runs (%s) values (%s)' % (','.join(row), ','.join('?' * len(row))),
                        list(row.values()))
        for table in ('trials', 'graphs', 'problems'):
            tcols = [d[1] for d in src.execute('pragma table_info(%s)' % table)]
            for r in src.execute('select * from %s' % table):
                row = dict(zip(tcols, r))
                row['run_id'] = new_id[row['run_id']]
                if row.get('from_run'):
                    row['from_run'] = new_id.get(row['from_run'], row['from_run'])
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
        print('appended runs', ', '.join('%d -> %d' % kv for kv in new_id.items()), 'to', target)


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
