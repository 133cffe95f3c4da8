/**
 * The hostile suite: one test (or a few) per fault of the write-path review, through the public
 * API only ({@code ModelFileSystems.open}, {@code java.nio.file.Files},
 * {@code JournaledFileSystem.commit/rollback}, {@code cli.Main.run}); child JVMs run
 * {@link org.modelfs.hostile.HostileMain}. Each test asserts the behaviour a careful user
 * expects; its comment says how it fails on the code of branch {@code hostile} at 0688043.
 *
 * <pre>
 * fault  test                                                                today
 *  1     PlantedFilesHostileTest.fault1_plantedJournalPathIsNeverFollowedNorDeleted    FAILS
 *  2     PlantedFilesHostileTest.fault2_symlinksAtFixedNamesAreNotWrittenThrough       FAILS
 *  2     PlantedFilesHostileTest.fault2_commitTemporariesAreNamedModelfsRandom         FAILS
 *  3     TransactionHostileTest.fault3_oneWriterEvenAfterOtherMountsOfTheSameJvmClose  FAILS
 *  4a-f  CommitValidityHostileTest.fault4a..fault4f                      FAIL except 4e (passes)
 *  5     CrashHostileTest.fault5_killedShardedCommitsPlusTmpCleanerLeaveOneGeneration  FAILS (timed kills)
 *  6     TransactionHostileTest.fault6_everySpellingOfAShardSetIsOneModel              FAILS
 *  7     CommitValidityHostileTest.fault7_representationChangeLeavesOnlyTheNewOne      FAILS
 *  8     InterruptHostileTest.fault8_afterAnInterruptAReadsItsOwnContainerOrFails      FAILS
 *  9     CrashHostileTest.fault9_readersNeverSeeMixedGenerations                       FAILS (probabilistic)
 * 10     PlantedFilesHostileTest.fault10_neighboursTemporariesAreLeftAlone             FAILS
 * 11     TransactionHostileTest.fault11_closeAlwaysClosesAndReleases                   FAILS
 * 12     TransactionHostileTest.fault12_aStaleWriterNeverLosesAnotherCommit            FAILS
 * </pre>
 *
 * Run: {@code mvn -o -q -B test -Dtest='org.modelfs.hostile.*Test'} (about 45 s of tests).
 */
package org.modelfs.hostile;
