// The one grading module, shared by the page's instructor view and tools/grade.mjs: read a
// submission file, re-grade it from its answers, grade a class, write the CSV and feedback
// files. No DOM; the caller passes the lab (core's grader, built by lab.js) and a code runner.
export { FLAGS, regradeSubmission, gradedChapters } from './regrade.js';
export { GradingCancelledError, gradeClass } from './class.js';
export { GRADING_CALLS, gradingLab, moduleGradingLab, workerGradingLab } from './lab.js';
export { readSubmission, SUBMISSION_FORMAT, SUBMISSION_VERSION } from './read.js';
export { normalizeCode } from './normalize-code.js';
export { CANVAS_IDENTITY_COLUMNS, CANVAS_POINTS_POSSIBLE, assignmentsCsv, canvasGradebookCsv, classOutputs, exercisesCsv, feedbackText, flagsCsv, moodleGradebookCsv, problemsCsv, rosterCsv, withoutPaths } from './outputs.js';
export { assignmentCourse, scoreAssignments } from './assignments.js';
export { canvasDownloadName, latenessOf, matchRoster, parseCsv, readRoster, readSubmissionTimes } from './roster.js';
export { SCORE_BANDS, classAnalytics, classRoofline, commonWrongValues, distributionRows, exerciseDistributions, isAttempted } from './summary.js';
export { analyticsFiles } from './analytics-files.js';
export { zipTextFiles } from './zip.js';
export { LEADERBOARD_FILES, OLYMPICS_CALLS, checkOlympicsEntries, leaderboardFiles, leaderboardSummary, lineageGroups, lineageKey, olympicsEntriesOf, openChecker, recheckOlympics, trainImagesOf } from './olympics.js';
