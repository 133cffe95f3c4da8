package org.apache.hadoop.fs;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.hadoop.conf.Configuration;
import org.modelfs.hdfs.HdfsFaults;

/**
 * Hadoop's HDFS {@code FileContext} implementation ({@code fs.AbstractFileSystem.hdfs.impl}) whose
 * renames fail as {@link HdfsFaults} says (here because {@link Hdfs}'s constructor is package-private).
 */
public class FaultyHdfs extends Hdfs {
  public FaultyHdfs(URI uri, Configuration conf) throws IOException, URISyntaxException {
    super(uri, conf);
  }

  @Override
  public void renameInternal(Path src, Path dst, boolean overwrite) throws IOException {
    HdfsFaults.before("rename " + src.getName() + " " + dst.getName());
    super.renameInternal(src, dst, overwrite);
    HdfsFaults.after("rename " + src.getName() + " " + dst.getName());
  }
}
