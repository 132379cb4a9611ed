#!/usr/bin/env python3
"""A JuiceFS dump (its JSON format: pkg/meta/dump.go) of the shape of TreeGenerator's million, for the
JuiceFS rows of the bench scripts: 100 x 100 directories of 99 files of one 4 KiB slice each
(1,000,101 inodes), streamed out. Usage: juicefs-tree.py OUT.json BUCKET-DIR/"""
import sys

T = 1700000000
out = open(sys.argv[1], 'w', buffering=1 << 20)


def attr(ino, typ, mode, nlink, length):
    return ('{"inode":%d,"type":"%s","mode":%d,"uid":0,"gid":0,"atime":%d,"mtime":%d,"ctime":%d,"nlink":%d,'
            '"length":%d}' % (ino, typ, mode, T, T, T, nlink, length))


files = 100 * 100 * 99
out.write('{\n"Setting": {"Name":"jfsbench","UUID":"5ecc44db-0f8d-4205-bd69-29bdf552b7fe","Storage":"file",'
          '"Bucket":"%s","BlockSize":4096,"Compression":"none","TrashDays":0,"MetaVersion":1,'
          '"MinClientVersion":"1.1.0-A","DirStats":true,"EnableACL":false},\n' % sys.argv[2])
out.write('"Counters": {"usedSpace":%d,"usedInodes":%d,"nextInodes":%d,"nextChunk":%d,"nextSession":0,'
          '"nextTrash":0},\n"Sustained": [],\n"DelFiles": [],\n' % (files * 4096, 1000100, 1000102, files + 1))
out.write('"FSTree": {"attr":%s,"entries":{\n' % attr(1, "directory", 511, 102, 0))
ino, chunk = 2, 1
for a in range(100):
    out.write('%s"a%02d":{"attr":%s,"entries":{\n' % ("," if a else "", a, attr(ino, "directory", 493, 102, 0)))
    ino += 1
    for b in range(100):
        out.write('%s"b%02d":{"attr":%s,"entries":{\n' % ("," if b else "", b, attr(ino, "directory", 493, 2, 0)))
        ino += 1
        entries = []
        for f in range(99):
            entries.append('"f%02d":{"attr":%s,"chunks":[{"index":0,"slices":[{"id":%d,"size":4096,"len":4096}]}]}'
                           % (f, attr(ino, "regular", 420, 1, 4096), chunk))
            ino, chunk = ino + 1, chunk + 1
        out.write(',\n'.join(entries) + '\n}}\n')
    out.write('}}\n')
out.write('}}\n}\n')
out.close()
