"""The same steps on a plain directory and on a tag of a mounted model (MountPosixDiffTest).

Usage: posix_steps.py [--list] TAGDIR. Works below TAGDIR/metadata and TAGDIR/params only; prints one line
per step (OK, or the errno's name), then every file below those two with its size and SHA-256.
The two runs' outputs must be equal: POSIX (tmpfs/ext4) is the reference for each program's write
pattern. Steps a plain directory and the mount answer differently by design are not here
(docs/MOUNT.md "Departures from POSIX").
"""
import errno, hashlib, os, shutil, subprocess, sys, tempfile

T = sys.argv[-1]
LIST_ONLY = sys.argv[1] == '--list'  # only the files and their hashes (a read-only remount)
M = os.path.join(T, 'metadata')
P = os.path.join(T, 'params')


def step(name, f):
    try:
        r = f()
        print(name, 'OK' if r is None else 'OK %r' % (r,))
    except OSError as e:
        print(name, errno.errorcode.get(e.errno, e.errno))


def sh(name, cmd):
    r = subprocess.run(['sh', '-c', cmd.replace('T/', T + '/')], capture_output=True, text=True)
    err = r.stderr.replace(T + '/', 'T/')
    print(name, 'exit', r.returncode, err.strip().splitlines()[-1:] if r.returncode else '')


def write(path, data, mode='wb'):
    with open(path, mode) as f:
        f.write(data)


def writer_across_rename():
    f = open(M + '/k1', 'w')
    f.write('x'); f.flush()
    os.rename(M + '/k1', M + '/k2')
    f.write('y'); f.close()
    return open(M + '/k2').read(), os.path.exists(M + '/k1')


def writer_across_dir_rename():
    os.mkdir(P + '/d1')
    f = open(P + '/d1/W', 'wb')
    f.write(b'\1' * 8); f.flush()
    os.rename(P + '/d1', P + '/d2')
    f.write(b'\2' * 8); f.close()
    return open(P + '/d2/W', 'rb').read().hex(), os.path.exists(P + '/d1')


def writer_across_unlink():
    fd = os.open(P + '/u', os.O_RDWR | os.O_CREAT, 0o644)
    os.write(fd, b'abcd')
    os.unlink(P + '/u')
    os.write(fd, b'efgh')
    back = os.pread(fd, 8, 0)
    os.close(fd)
    return back, os.path.exists(P + '/u'), 'u' in os.listdir(P)


def rmtree_with_open_file():
    os.mkdir(P + '/d3')
    fd = os.open(P + '/d3/W', os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(fd, b'1234')
    shutil.rmtree(P + '/d3')
    os.write(fd, b'5678')
    os.close(fd)
    return os.path.exists(P + '/d3')


def replace_atomically():
    fd, tmp = tempfile.mkstemp(dir=M, prefix='.k2.')
    os.write(fd, b'atomic\n'); os.fsync(fd); os.close(fd)
    os.replace(tmp, M + '/k2')
    d = os.open(M, os.O_RDONLY); os.fsync(d); os.close(d)
    return sorted(n for n in os.listdir(M) if n.startswith('.k2.'))


def named_temporary():
    with tempfile.NamedTemporaryFile(dir=M) as f:
        f.write(b'scratch'); f.flush()
        name = f.name
    return os.path.exists(name)


def r_plus():
    with open(M + '/k2', 'r+') as f:
        f.seek(2); f.write('XY')
    with open(M + '/k2', 'a') as f:
        f.write('tail\n')
    return open(M + '/k2').read()


def truncate_both_ways():
    write(P + '/t', b'\7' * 16)
    os.truncate(P + '/t', 4)
    os.truncate(P + '/t', 12)
    return open(P + '/t', 'rb').read().hex()


def long_names():
    out = []
    for n in ('a' * 255, 'b' * 256):
        for what, f in (('create', lambda: write(M + '/' + n, b'l')), ('mkdir', lambda: os.mkdir(P + '/' + n)),
                         ('rename', lambda: os.rename(M + '/k2', M + '/' + n)),
                         ('rename back', lambda: os.rename(M + '/' + n, M + '/k2'))):
            try:
                f(); out.append((len(n), what, 'OK'))
            except OSError as e:
                out.append((len(n), what, errno.errorcode[e.errno]))
    return out


def refusals():
    out = []
    write(P + '/f', b'\0' * 4)
    os.makedirs(P + '/full/x')
    os.mkdir(P + '/empty')
    for what, f in (('mkdir existing', lambda: os.mkdir(P + '/full')),
                    ('rmdir non-empty', lambda: os.rmdir(P + '/full')),
                    ('rename dir onto non-empty dir', lambda: os.rename(P + '/empty', P + '/full')),
                    ('rename file onto dir', lambda: os.rename(P + '/f', P + '/empty')),
                    ('rename dir onto file', lambda: os.rename(P + '/empty', P + '/f')),
                    ('unlink dir', lambda: os.unlink(P + '/empty')),
                    ('open dir for writing', lambda: open(P + '/empty', 'wb')),
                    ('create below a file', lambda: write(P + '/f/x', b'')),
                    ('create exclusive existing', lambda: os.close(os.open(P + '/f', os.O_CREAT | os.O_EXCL | os.O_WRONLY))),
                    ('open missing', lambda: open(P + '/nope', 'rb')),
                    ('rmdir missing', lambda: os.rmdir(P + '/nope'))):
        try:
            f(); out.append((what, 'OK'))
        except OSError as e:
            out.append((what, errno.errorcode[e.errno]))
    os.rmdir(P + '/empty')
    return out


def listing():
    for area in (M, P):
        for d, dirs, files in sorted(os.walk(area)):
            dirs.sort()
            for n in sorted(files):
                b = open(os.path.join(d, n), 'rb').read()
                print(os.path.relpath(os.path.join(d, n), T), len(b), hashlib.sha256(b).hexdigest()[:16])


if LIST_ONLY:
    listing()
    sys.exit(0)
step('writer across rename', writer_across_rename)
step('writer across directory rename', writer_across_dir_rename)
step('writer across unlink', writer_across_unlink)
step('rm -r with a file open', rmtree_with_open_file)
step('mkstemp + fsync + os.replace', replace_atomically)
step('NamedTemporaryFile', named_temporary)
step('r+ and a', r_plus)
step('truncate down and up', truncate_both_ways)
step('long names', long_names)
step('refusals', refusals)
step('copy', lambda: shutil.copyfile(P + '/t', P + '/t2') and None)
step('scandir types', lambda: sorted((e.name, e.is_dir(), e.is_file()) for e in os.scandir(P) if e.name in ('d2', 't', 'f')))
sh('dd conv=notrunc', "printf 'ZZZZ' | dd of=T/params/t bs=1 seek=4 conv=notrunc 2>/dev/null")
sh('cat >>', 'cat T/params/t >> T/params/t2')
sh('split', 'split -b 8 T/params/t2 T/params/part_')
sh('install', 'install -m 644 T/params/part_aa T/params/inst')
sh('cp --sparse', 'head -c 64 /dev/zero > sparse.bin && cp --sparse=always sparse.bin T/params/sparse')
sh('rsync --inplace', 'rsync --inplace -I T/params/t2 T/params/t3 && printf QQQQ | dd of=T/params/t3 conv=notrunc 2>/dev/null && rsync --inplace -I T/params/t3 T/params/t2')
sh('tar -x over existing', 'tar -C T/params -cf ptar.tar t t2 && tar -C T/params -xf ptar.tar')
sh('find -exec rm', "find T/params -name 'part_*' -exec rm {} +")
sh('fallocate', 'fallocate -l 64 T/params/fa && fallocate -l 32 T/params/fa && fallocate -n -l 256 T/params/fa')
step('posix_fallocate', lambda: (lambda fd: (os.posix_fallocate(fd, 0, 40), os.close(fd), os.path.getsize(P + '/pf'))[2])(
    os.open(P + '/pf', os.O_CREAT | os.O_WRONLY, 0o644)))
sh('touch and chmod', 'touch T/metadata/touched && chmod 600 T/metadata/touched')
sh('mv over a file', 'cp T/params/t T/params/t4 && mv T/params/t4 T/params/t2')
sh('ln -f, the last change of both names', 'ln -f T/params/t T/params/t5')
listing()
