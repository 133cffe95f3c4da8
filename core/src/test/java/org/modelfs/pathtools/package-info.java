/**
 * Generic path tools on a mounted model (issue 13): the JDK's own {@code Files.walkFileTree}
 * examples, Apache commons-io {@code PathUtils}, Guava {@code MoreFiles}, {@code Files.find},
 * path matchers, and copies to and from jdk.zipfs and jimfs — each written exactly as its
 * documentation writes it, so that a test stands for what a user's code does. The documented
 * idioms live in {@link org.modelfs.pathtools.JdkIdioms}, {@link org.modelfs.pathtools.CommonsIoIdioms}
 * and {@link org.modelfs.pathtools.GuavaIdioms}, each citing its source; the models and the tree
 * comparison in {@link org.modelfs.pathtools.PathToolsModels} and
 * {@link org.modelfs.pathtools.TreeSnapshot}.
 */
package org.modelfs.pathtools;
