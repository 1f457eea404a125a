// The deposit form's dialogs in one chunk, fetched when the first of them opens (see dialogs.ts):
// one chunk rather than eight keeps the libraries they share with the form in the form's chunks.
export { CommunitySelectionModal } from './community/CommunitySelectionModal';
export { SubmitReviewModal } from './community/SubmitReviewModal';
export { ConflictDialog } from './ConflictDialog';
export { CreatorModal } from './creators/CreatorModal';
export { DeleteConfirmModal } from './DeleteConfirmModal';
export { CustomLicenseModal } from './metadata/CustomLicenseModal';
export { FundingModal } from './metadata/FundingModal';
export { LicenseSearchModal } from './metadata/LicenseSearchModal';
export { PublishModal } from './PublishModal';
