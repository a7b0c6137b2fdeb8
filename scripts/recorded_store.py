#!/usr/bin/env python3
"""Results stores as the tuner reads them: an SQLite file, a gzipped one (*.sqlite.gz), or a
folder of such stores read as one (each *.sqlite and *.sqlite.gz directly in it, a run in one of
them only): how the recorded runs are kept, tests/data/recorded/h200/, one file a run, so that
adding a run adds its own few MB to git rather than a new copy of every run before it.
tuner/store.cpp (Store::open_folder) reads a folder the same way.

  scripts/recorded_store.py merge STORE OUT.sqlite   one plain store holding every run of STORE
                                                     (gpu-multi.sh's REUSE copies it in)
  scripts/recorded_store.py cut STORE RUN OUT        a store holding run RUN of STORE alone
                                                     (.gz when OUT ends in .gz)
  scripts/recorded_store.py latest-only FOLDER       leaves FOLDER holding its latest run only
                                                     (device-tree.sh trim; git checkout undoes it)
  scripts/recorded_store.py runs STORE               each run id and the file holding it
"""
import gzip
import os
import shutil
import sqlite3
import sys
import tempfile

TABLES = ('runs', 'trials', 'graphs', 'problems')


class StoreError(Exception):
    pass


def parts(path):
    """The store files of `path`: its folder's stores by name, or the file itself."""
    if not os.path.isdir(path):
        if not os.path.isfile(path):
            raise StoreError('no results store at %s' % path)
        return [path]
    out = sorted(os.path.join(path, f) for f in os.listdir(path)
                 if not f.startswith('.') and (f.endswith('.sqlite') or f.endswith('.sqlite.gz'))
                 and os.path.isfile(os.path.join(path, f)))
    if not out:
        raise StoreError('%s is a folder with no store in it (*.sqlite or *.sqlite.gz)' % path)
    return out


def copy_file_store(path, out):
    """A plain, writable copy of one store file at out (gunzipped, or through SQLite's backup so
    that a WAL beside it is read too)."""
    if path.endswith('.gz'):
        with gzip.open(path, 'rb') as f, open(out, 'wb') as g:
            shutil.copyfileobj(f, g)
    else:
        src = sqlite3.connect('file:%s?mode=ro' % path, uri=True)
        dst = sqlite3.connect(out)
        src.backup(dst)
        src.close()
        dst.close()
    db = sqlite3.connect(out)
    db.execute('pragma journal_mode=delete')
    db.close()


def columns(db, table, schema='main'):
    return [d[1] for d in db.execute('pragma %s.table_info(%s)' % (schema, table))]


def merged_copy(path, out):
    """A plain, writable store at out holding every run of `path` (a file or a folder); a run
    id found in two files of a folder is refused, naming both."""
    files = parts(path)
    copy_file_store(files[0], out)
    db = sqlite3.connect(out)
    owner = {i: files[0] for (i,) in db.execute('select id from runs')}
    with tempfile.TemporaryDirectory() as tmp:
        for n, f in enumerate(files[1:]):
            plain = os.path.join(tmp, 'part%d.sqlite' % n)
            copy_file_store(f, plain)
            db.execute('attach ? as part', (plain,))
            for (i,) in db.execute('select id from part.runs'):
                if i in owner:
                    raise StoreError('run %d is in both %s and %s: a run belongs to one store of '
                                     'the folder' % (i, owner[i], f))
                owner[i] = f
            for table in TABLES:
                theirs = columns(db, table, 'part')
                if not theirs:
                    continue
                mine = columns(db, table)
                if not mine:
                    raise StoreError('%s has a table %s that %s lacks' % (f, table, files[0]))
                types = {d[1]: d[2] for d in db.execute('pragma part.table_info(%s)' % table)}
                for c in theirs:  # a column a later tuner added: the earlier parts read it as NULL
                    if c not in mine:
                        db.execute('alter table main.%s add column %s %s' % (table, c, types[c]))
                cols = ','.join(theirs)
                db.execute('insert into main.%s (%s) select %s from part.%s' % (table, cols, cols, table))
            db.commit()
            db.execute('detach part')
            os.remove(plain)
    seq = max(owner) if owner else 0
    if db.execute("select 1 from sqlite_master where name = 'sqlite_sequence'").fetchone():
        db.execute("update sqlite_sequence set seq = max(seq, ?) where name = 'runs'", (seq,))
    db.commit()
    db.close()


def write_store(plain, out):
    """plain (an SQLite file) written to out, gzipped when out ends in .gz; out is replaced whole
    or not at all."""
    tmp = out + '.tmp'
    if out.endswith('.gz'):
        with open(plain, 'rb') as f, gzip.open(tmp, 'wb', compresslevel=9) as g:
            shutil.copyfileobj(f, g)
    else:
        shutil.copyfile(plain, tmp)
    os.replace(tmp, out)


def cut(plain, run_id, out):
    """Writes to out a store holding run run_id of the plain store `plain` alone."""
    with tempfile.TemporaryDirectory() as tmp:
        one = os.path.join(tmp, 'one.sqlite')
        shutil.copyfile(plain, one)
        db = sqlite3.connect(one)
        if not db.execute('select 1 from runs where id = ?', (run_id,)).fetchone():
            raise StoreError('no run %d in %s' % (run_id, plain))
        for table in TABLES:
            if columns(db, table):
                db.execute('delete from %s where %s != ?' % (table, 'id' if table == 'runs' else 'run_id'),
                           (run_id,))
        db.commit()
        db.execute('vacuum')
        db.close()
        write_store(one, out)


def run_files(path):
    """{run id: the file of `path` holding it}."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for f in parts(path):
            plain = os.path.join(tmp, 'p.sqlite')
            copy_file_store(f, plain)
            db = sqlite3.connect(plain)
            out.update({i: f for (i,) in db.execute('select id from runs')})
            db.close()
            os.remove(plain)
    return out


def latest_only(folder):
    """Leaves `folder` holding its latest run alone: the file holding it, cut to that run when it
    holds others too, keeps its name; every other store file goes."""
    owner = run_files(folder)
    if not owner:
        raise StoreError('%s holds no run' % folder)
    latest = max(owner)
    keep = owner[latest]
    if sum(1 for f in owner.values() if f == keep) > 1:
        with tempfile.TemporaryDirectory() as tmp:
            plain = os.path.join(tmp, 'keep.sqlite')
            copy_file_store(keep, plain)
            cut(plain, latest, keep)
    for f in parts(folder):
        if f != keep:
            os.remove(f)
    return latest, keep


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    cmd, args = argv[1], argv[2:]
    try:
        if cmd == 'merge' and len(args) == 2:
            with tempfile.TemporaryDirectory() as tmp:
                plain = os.path.join(tmp, 'merged.sqlite')
                merged_copy(args[0], plain)
                write_store(plain, args[1])
        elif cmd == 'cut' and len(args) == 3:
            with tempfile.TemporaryDirectory() as tmp:
                plain = os.path.join(tmp, 'merged.sqlite')
                merged_copy(args[0], plain)
                cut(plain, int(args[1]), args[2])
        elif cmd == 'latest-only' and len(args) == 1:
            latest, keep = latest_only(args[0])
            print('%s: run %d only, in %s (%.1f MB)' % (args[0], latest, keep, os.path.getsize(keep) / 1e6))
        elif cmd == 'runs' and len(args) == 1:
            for i, f in sorted(run_files(args[0]).items()):
                print(i, f)
        else:
            sys.exit(__doc__)
    except (StoreError, sqlite3.Error, OSError) as e:
        sys.exit('recorded_store %s: %s' % (cmd, e))


if __name__ == '__main__':
    main(sys.argv)
